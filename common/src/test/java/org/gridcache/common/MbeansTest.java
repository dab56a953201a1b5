package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class MbeansTest {
    public interface SwitchMXBean {
        boolean isOn();

        void setOn(boolean on);

        String flip();
    }

    static final class Switch implements SwitchMXBean {
        volatile boolean on;

        @Override
        public boolean isOn() {
            return on;
        }

        @Override
        public void setOn(boolean on) {
            this.on = on;
        }

        @Override
        public String flip() {
            on = !on;
            return on ? "on" : "off";
        }
    }

    @Test
    void aWritableAttributeIsAlsoAnOperationAndUnregisteringWorks() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = Mbeans.name("type=Test,name=switch");
        Switch bean = new Switch();
        try (AutoCloseable registration = Mbeans.register("type=Test,name=switch", SwitchMXBean.class, bean)) {
            server.invoke(name, "setOn", new Object[] {true}, new String[] {"boolean"});
            assertTrue(bean.on);
            server.setAttribute(name, new Attribute("On", false));
            assertFalse(bean.on);
            assertEquals("on", server.invoke(name, "flip", new Object[0], new String[0]));
            assertTrue((Boolean) server.getAttribute(name, "On"));
            // a second registration under the same name is refused quietly, the first owner keeps it
            try (AutoCloseable second = Mbeans.register("type=Test,name=switch", SwitchMXBean.class, new Switch())) {
                assertTrue((Boolean) server.getAttribute(name, "On"));
            }
            assertTrue(server.isRegistered(name));
        }
        assertFalse(server.isRegistered(name));
    }
}
