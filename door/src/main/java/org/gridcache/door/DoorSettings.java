package org.gridcache.door;

import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.ticket.TicketSigningKey;

/**
 * How one door starts: its id (the name of its {@code /doors/<id>} znode), where it listens ({@code port} 0 picks a
 * free port), the URL it publishes ({@code null}: {@code http://bindHost:boundPort}), its ticket keys and how it is
 * secured ({@link DoorSecurity}). {@code ticketKeys}: the first signs; all of them (the current and, during a
 * roll-over, the previous one) are published for pools to verify with. {@code fileOriginRoots}: the directories
 * {@code file://} origins may lie in (none by default: no {@code file://} origin is listed).
 */
public record DoorSettings(String id, String bindHost, int port, String publicUrl, List<TicketSigningKey> ticketKeys,
                           DoorSecurity security, FileOriginRoots fileOriginRoots) {

    public DoorSettings {
        security = security == null ? DoorSecurity.plain(null) : security;
        fileOriginRoots = fileOriginRoots == null ? FileOriginRoots.NONE : fileOriginRoots;
        if (ticketKeys == null || ticketKeys.isEmpty()) {
            throw new IllegalArgumentException("door " + id + ": needs a ticket signing key");
        }
        ticketKeys = List.copyOf(ticketKeys);
    }

    /** A door that serves no {@code file://} origin. */
    public DoorSettings(String id, String bindHost, int port, String publicUrl, List<TicketSigningKey> ticketKeys,
                        DoorSecurity security) {
        this(id, bindHost, port, publicUrl, ticketKeys, security, FileOriginRoots.NONE);
    }

    /** A plain-HTTP door with anonymous access for everyone. */
    public DoorSettings(String id, String bindHost, int port, String publicUrl, TicketSigningKey ticketKey) {
        this(id, bindHost, port, publicUrl, List.of(ticketKey), null);
    }

    /** These settings, serving the {@code file://} origins that lie in {@code roots}. */
    public DoorSettings withFileOriginRoots(FileOriginRoots roots) {
        return new DoorSettings(id, bindHost, port, publicUrl, ticketKeys, security, roots);
    }

    /** The key the door signs with. */
    public TicketSigningKey signingKey() {
        return ticketKeys.get(0);
    }
}
