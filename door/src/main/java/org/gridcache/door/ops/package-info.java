/**
 * What an operator sees of a door: counters, Prometheus metrics, the MXBeans {@code type=Door} and
 * {@code type=Cluster}, and the status page.
 */
package org.gridcache.door.ops;
