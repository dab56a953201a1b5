/**
 * Reads of a file (ARCHITECTURE.md, "Flows": a read, a proxied read): the signed ticket, the redirect to the
 * chosen pool with its fallbacks, and proxy mode for clients that cannot follow a redirect.
 * <p>Layer (DoorShapeTest): Above {@code namespace}, {@code select} and {@code ops}; below writes and copies, which redirect as reads do.
 */
package org.gridcache.door.read;
