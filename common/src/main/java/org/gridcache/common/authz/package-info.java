/**
 * Authorization vocabulary shared by door and pool: the {@link org.gridcache.common.authz.Activity activities} a
 * request performs, the {@link org.gridcache.common.authz.Grants grants} a bearer token's scopes or a macaroon's
 * caveats carry, and the {@link org.gridcache.common.authz.BearerIdentity identity} a token names.
 */
package org.gridcache.common.authz;
