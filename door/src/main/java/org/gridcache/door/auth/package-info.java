/**
 * Who the caller is and what they may do: X.509 certificates and proxies with VOMS attributes become a
 * {@code GridSubject}; the authorization policy file decides per path (ARCHITECTURE.md, "Trust model").
 */
package org.gridcache.door.auth;
