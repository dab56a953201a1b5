/**
 * What is where (ARCHITECTURE.md, "Flows"): the mount table says which origin serves a path, an origin lister
 * ({@code file}, WebDAV/HTTP, GridFTP) says what is there, as the requesting subject; answers are cached briefly.
 */
package org.gridcache.door.namespace;
