/**
 * Reading origins as the user (ARCHITECTURE.md, "Trust model"): the permission cache and the delegated credentials
 * obtained from the door.
 */
package org.gridcache.pool.access;
