package org.gridcache.door;

import java.util.List;

/** What the door's tests share for the parts they start. */
public final class TestResources {
    private TestResources() {
    }

    /** Closes what a test started, last started first; a part that fails to close does not keep the others open. */
    public static void closeInReverse(List<AutoCloseable> parts) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                // best effort: the next test starts afresh in a new temporary directory
            }
        }
        parts.clear();
    }
}
