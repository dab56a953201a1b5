/**
 * Reading origins as the user (ARCHITECTURE.md, "Trust model"): the delegated credentials obtained from the door,
 * below the origins that present them (the permission cache, {@code origin.OriginAccess}, asks the origins).
 */
package org.gridcache.pool.access;
