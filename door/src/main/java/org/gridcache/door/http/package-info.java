/**
 * The door's front (ARCHITECTURE.md, "Parts"): Jetty, the filter every request passes before Milton, the
 * {@code /.gridcache/} services; refusals are answered through {@code org.gridcache.door.exchange}.
 * <p>Layer (DoorShapeTest): the top of the door's request path: it imports every package that answers a request; only {@code org.gridcache.door} (the assembly) is above it.
 */
package org.gridcache.door.http;
