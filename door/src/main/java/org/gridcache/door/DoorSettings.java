package org.gridcache.door;

/**
 * How one door starts: its id (the name of its {@code /doors/<id>} znode), where it listens ({@code port} 0 picks a
 * free port), the URL it publishes ({@code null}: {@code http://bindHost:boundPort}) and the ticket key it shares with
 * the pools.
 */
public record DoorSettings(String id, String bindHost, int port, String publicUrl, byte[] ticketKey) {
}
