/**
 * What an operator sees of a door: counters, Prometheus metrics, the MXBeans {@code type=Door} and
 * {@code type=Cluster}, and the status page.
 * <p>Layer (DoorShapeTest): Above {@code liveness} and {@code webdav}; below reads and the front, which count into {@code DoorStats}.
 */
package org.gridcache.door.ops;
