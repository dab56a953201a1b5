/**
 * Reads of a file (ARCHITECTURE.md, "Flows": a read, a proxied read): the signed ticket, the redirect to the
 * chosen pool with its fallbacks, and proxy mode for clients that cannot follow a redirect.
 */
package org.gridcache.door.read;
