/**
 * What is where (ARCHITECTURE.md, "Flows"): the mount table says which origin serves a path, an origin lister
 * ({@code file}, WebDAV/HTTP, GridFTP) says what is there, as the requesting subject; answers are cached briefly.
 * <p>Layer (DoorShapeTest): Imports only {@code exchange} of the door: what is where does not depend on who asks how.
 */
package org.gridcache.door.namespace;
