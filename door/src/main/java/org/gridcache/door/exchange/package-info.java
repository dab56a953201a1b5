/**
 * The bottom of the door: what every part of it shares about a request and its answer. A refusal
 * ({@link org.gridcache.door.exchange.DoorException}: a status and one line), bounded and timed request bodies, the
 * one way a refusal or a short answer is written, and the request's namespace path and subject. It imports no other
 * package of the door (DoorLayersTest).
 */
package org.gridcache.door.exchange;
