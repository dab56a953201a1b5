package org.gridcache.door.auth.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StorageScopesTest {
    @Test
    void eachScopeGrantsItsActivitiesBelowTheBasePath() {
        assertEquals("DOWNLOAD,LIST,READ_METADATA:/atlas/data MANAGE,READ_METADATA,UPLOAD:/atlas/new "
                        + "DELETE,MANAGE,READ_METADATA,UPDATE_METADATA,UPLOAD:/atlas/rw READ_METADATA,STAGE:/atlas/tape",
                StorageScopes.of("storage.read:/data storage.create:/new storage.modify:/rw storage.stage:/tape", "/atlas").toString());
        assertEquals("DOWNLOAD,LIST,READ_METADATA:/ DELETE,MANAGE,READ_METADATA,UPDATE_METADATA,UPLOAD:/u",
                StorageScopes.of("read:/ write:/u", "/").toString());
    }

    @Test
    void otherScopesAreIgnoredAndNoStorageScopeIsNull() {
        assertNull(StorageScopes.of("openid offline_access compute.read", "/"));
        assertNull(StorageScopes.of(null, "/"));
        assertEquals("DOWNLOAD,LIST,READ_METADATA:/x", StorageScopes.of("openid storage.read:/x wlcg", "/").toString());
    }

    @Test
    void aPathIsRequiredAndMayNotClimb() {
        assertEquals("storage scope storage.create without a path (storage.create:/path)",
                assertThrows(IllegalArgumentException.class, () -> StorageScopes.of("storage.create", "/")).getMessage());
        assertEquals("storage scope read without a path (read:/path)",
                assertThrows(IllegalArgumentException.class, () -> StorageScopes.of("read:", "/")).getMessage());
        assertEquals("storage scope storage.read: path contains '..'",
                assertThrows(IllegalArgumentException.class, () -> StorageScopes.of("storage.read:/a/../../b", "/atlas")).getMessage());
    }
}
