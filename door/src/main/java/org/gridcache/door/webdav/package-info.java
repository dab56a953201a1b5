/**
 * Milton glue for PROPFIND (the only method that reaches Milton), the check of PROPFIND requests, and the HTML
 * listing for browsers.
 */
package org.gridcache.door.webdav;
