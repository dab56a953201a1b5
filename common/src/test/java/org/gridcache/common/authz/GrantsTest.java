package org.gridcache.common.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.gridcache.common.security.GridSubject;
import org.junit.jupiter.api.Test;

class GrantsTest {
    @Test
    void aGrantCoversItsPathByWholeComponents() {
        PathGrant grant = new PathGrant(Activity.READING, "/foo");
        assertTrue(grant.allows(Activity.DOWNLOAD, "/foo"));
        assertTrue(grant.allows(Activity.DOWNLOAD, "/foo/x/y"));
        assertFalse(grant.allows(Activity.DOWNLOAD, "/foobar"));
        assertFalse(grant.allows(Activity.DOWNLOAD, "/"));
        assertFalse(grant.allows(Activity.UPLOAD, "/foo/x"));
    }

    @Test
    void createMayNotReplaceButModifyMay() {
        assertFalse(new PathGrant(Activity.CREATING, "/d").allows(Activity.DELETE, "/d/f"));
        assertTrue(new PathGrant(Activity.MODIFYING, "/d").allows(Activity.DELETE, "/d/f"));
        assertTrue(new PathGrant(Activity.STAGING, "/d").allows(Activity.READ_METADATA, "/d/f"));
    }

    @Test
    void grantsTravelAsTextAndComeBackEqual() {
        Grants grants = Grants.of(new PathGrant(Activity.READING, "/a"), new PathGrant(Set.of(Activity.UPLOAD), "/b/c"));
        assertEquals(List.of("DOWNLOAD,LIST,READ_METADATA:/a", "UPLOAD:/b/c"), grants.encode());
        assertEquals(grants, Grants.decode(grants.encode()));
        assertThrows(IllegalArgumentException.class, () -> PathGrant.decode("DOWNLOAD"));
        assertThrows(IllegalArgumentException.class, () -> PathGrant.decode("DOWNLOAD:relative"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PathGrant.decode("FLY:/a")).getMessage().contains("unknown activity 'FLY'"));
    }

    @Test
    void scopesDecideAloneAndCaveatsNarrowWhateverDecided() {
        GridSubject scoped = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of(),
                Grants.of(new PathGrant(Activity.READING, "/atlas")));
        assertTrue(scoped.allows(Activity.DOWNLOAD, "/atlas/f", () -> false)); // the policy is not asked
        assertFalse(scoped.allows(Activity.DOWNLOAD, "/cms/f", () -> true));
        assertFalse(scoped.anonymous());
        assertEquals("token:42@https://iss", scoped.name());

        GridSubject grouped = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of("/atlas"), null);
        assertTrue(grouped.allows(Activity.DOWNLOAD, "/cms/f", () -> true)); // no scopes: the policy decides

        GridSubject alice = GridSubject.of("/CN=Alice").withCaveats(Grants.of(new PathGrant(Set.of(Activity.DOWNLOAD), "/atlas")));
        assertTrue(alice.allows(Activity.DOWNLOAD, "/atlas/f", () -> true));
        assertFalse(alice.allows(Activity.DOWNLOAD, "/atlas/f", () -> false)); // never more than the policy
        assertFalse(alice.allows(Activity.UPLOAD, "/atlas/f", () -> true));
        GridSubject widened = alice.withCaveats(Grants.of(new PathGrant(Set.of(Activity.values()), "/")));
        assertFalse(widened.allows(Activity.UPLOAD, "/atlas/f", () -> true)); // a later caveat only narrows
    }
}
