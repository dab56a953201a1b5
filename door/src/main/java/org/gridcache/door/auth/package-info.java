/**
 * Who the caller is and what they may do: X.509 certificates and proxies with VOMS attributes become a
 * {@code GridSubject}; the authorization policy file decides per path (ARCHITECTURE.md, "Trust model").
 * <p>Layer (DoorShapeTest): Above {@code exchange} only; bearer tokens ({@code auth.token}), macaroons ({@code auth.macaroon}) and delegation build on it, and its assembly with them is {@code org.gridcache.door.DoorGridSecurity}.
 */
package org.gridcache.door.auth;
