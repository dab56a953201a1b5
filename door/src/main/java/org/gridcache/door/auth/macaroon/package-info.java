/**
 * Macaroons as dCache issues them (issue 13): {@link org.gridcache.door.auth.macaroon.MacaroonRequests} answers
 * {@code POST} with {@code Content-Type: application/macaroon-request}, {@link org.gridcache.door.auth.macaroon.MacaroonIssuer}
 * makes one with the cluster's root key ({@code org.gridcache.zk.MacaroonSecrets}), and
 * {@link org.gridcache.door.auth.macaroon.MacaroonVerifier} accepts one as a bearer token: the issuer's subject
 * ({@link org.gridcache.door.auth.macaroon.IssuerIdentity}) bounded by every caveat
 * ({@link org.gridcache.door.auth.macaroon.Caveat}).
 * <p>Layer (DoorShapeTest): Above {@code auth}; beside {@code auth.token}, which it does not import.
 */
package org.gridcache.door.auth.macaroon;
