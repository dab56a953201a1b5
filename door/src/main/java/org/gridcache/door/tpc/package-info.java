/**
 * WLCG HTTP third-party copy at the door: a COPY with a {@code Source} header (pull into the path) or with a
 * {@code Destination} on another server (push of the path) is checked as the write or read it is and redirected
 * (307) to the pool that does the transfer, with a ticket binding the remote URL (ARCHITECTURE.md, "Third-party copy").
 * <p>Layer (DoorShapeTest): Above {@code write} and {@code read}; below only the front.
 */
package org.gridcache.door.tpc;
