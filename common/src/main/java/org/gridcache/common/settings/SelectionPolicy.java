package org.gridcache.common.settings;

import java.util.Arrays;
import java.util.List;

/** How a door chooses a pool ({@code selection.policy}; ARCHITECTURE.md, "Choosing a pool"). */
public enum SelectionPolicy {
    RANDOM("random"), LEAST_LOADED("least-loaded"), AFFINITY("affinity");

    private final String label;

    SelectionPolicy(String label) {
        this.label = label;
    }

    /** The name admins write and the door reports. */
    public String label() {
        return label;
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(SelectionPolicy::label).toList();
    }

    public static SelectionPolicy parse(String v) {
        SelectionPolicy p = SettingTypes.byLabel(SelectionPolicy.class, v, SelectionPolicy::label);
        if (p == null) {
            throw new IllegalArgumentException("unknown policy (known: " + String.join(", ", labels()) + ")");
        }
        return p;
    }

    @Override
    public String toString() {
        return label;
    }
}
