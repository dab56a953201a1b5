/**
 * WLCG JWT profile and SciTokens bearer tokens: the issuers a door trusts ({@link
 * org.gridcache.door.auth.token.TokenIssuers}, {@code --token-issuers}), their keys (a JWKS file or the issuer's
 * discovery document), a token verified into a subject ({@link org.gridcache.door.auth.token.JwtVerifier}) and its
 * storage scopes read as grants ({@link org.gridcache.door.auth.token.StorageScopes}).
 * <p>Layer (DoorShapeTest): Above {@code auth}; beside {@code auth.macaroon}, which it does not import.
 */
package org.gridcache.door.auth.token;
