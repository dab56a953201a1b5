package org.gridcache.door;

/**
 * How one door starts: its id (the name of its {@code /doors/<id>} znode), where it listens ({@code port} 0 picks a
 * free port), the URL it publishes ({@code null}: {@code http://bindHost:boundPort}) and the ticket key it shares with
 * the pools, and how it is secured ({@link DoorSecurity}).
 */
public record DoorSettings(String id, String bindHost, int port, String publicUrl, byte[] ticketKey, DoorSecurity security) {

    public DoorSettings {
        security = security == null ? DoorSecurity.plain(null) : security;
    }

    /** A plain-HTTP door with anonymous access for everyone. */
    public DoorSettings(String id, String bindHost, int port, String publicUrl, byte[] ticketKey) {
        this(id, bindHost, port, publicUrl, ticketKey, null);
    }
}
