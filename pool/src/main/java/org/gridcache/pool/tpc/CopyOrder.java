package org.gridcache.pool.tpc;

import java.util.Map;
import org.gridcache.common.ticket.Ticket;

/**
 * A third-party copy as admitted: the door's ticket (with the origin URL the pool resolved), its signed form (shown
 * to the door for the user's credential), the direction, the checksum check asked for, and the headers to send the
 * remote ({@link TransferHeaders}).
 */
record CopyOrder(Ticket ticket, String token, boolean pull, ChecksumCheck check, Map<String, String> headers) {
}
