/**
 * The door's front (ARCHITECTURE.md, "Parts"): Jetty, the filter every request passes before Milton, the
 * {@code /.gridcache/} services, and the one way a refusal is answered (a status and one line of text).
 */
package org.gridcache.door.http;
