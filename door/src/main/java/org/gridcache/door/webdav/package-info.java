/**
 * Milton glue for PROPFIND (the only method that reaches Milton), the check of PROPFIND requests, and the HTML
 * listing for browsers.
 * <p>Layer (DoorShapeTest): Above {@code props}, {@code lock} and {@code namespace}; below {@code ops}, whose status page uses its HTML escaping.
 */
package org.gridcache.door.webdav;
