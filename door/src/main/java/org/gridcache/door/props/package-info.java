/**
 * Dead WebDAV properties: PROPPATCH answered by the door ({@link PropPatch}), its body read without DTDs
 * ({@link PropertyUpdate}), each property element kept as standalone XML ({@link PropertyXml}) in the cluster's
 * store ({@code org.gridcache.zk.props.DeadPropertyStore}); PROPFIND shows them through Milton ({@code door.webdav}).
 * <p>Layer (DoorShapeTest): Above {@code lock} (a PROPPATCH passes the locks), below {@code webdav}, which shows the properties.
 */
package org.gridcache.door.props;
