package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UserCredentialCheckTest {

    @Test
    void delegationServiceIsTheSiblingOfTheCredentialServiceTheTicketNames() {
        assertEquals("https://door.example.org:8443/.gridcache/delegation",
                UserCredentialCheck.delegationUrl("https://door.example.org:8443/.gridcache/credential"));
        assertEquals("https://door.example.org/prefix/.gridcache/delegation",
                UserCredentialCheck.delegationUrl("https://door.example.org/prefix/.gridcache/credential?x=1"));
    }
}
