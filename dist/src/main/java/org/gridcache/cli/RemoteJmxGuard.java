package org.gridcache.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.remote.MBeanServerForwarder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What no remote JMX user may do, whatever the access file grants: take a heap dump (it holds the ticket key and
 * every delegated private key), load an agent or run other diagnostic commands (code in the process), or change VM
 * flags. Without an access file (loopback only) nobody may create or unregister MBeans either (an MLet loads code from
 * any URL). Flight recordings are refused too (copyTo writes any file the node may, and a stream carries the process's
 * environment). Admins take heap dumps and recordings on the host itself ({@code jcmd PID GC.heap_dump FILE}).
 */
final class RemoteJmxGuard implements InvocationHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteJmxGuard.class);
    /** Operations refused by MBean; an empty set refuses every operation of that MBean. */
    private static final Map<String, Set<String>> REFUSED = Map.of(
            "com.sun.management:type=HotSpotDiagnostic", Set.of("dumpHeap", "setVMOption"),
            "com.sun.management:type=DiagnosticCommand", Set.of(),
            // a recording copied to any path overwrites files the node can write; its stream exports the environment
            "jdk.management.jfr:type=FlightRecorder", Set.of());
    private static final Set<String> MBEAN_LIFECYCLE = Set.of("createMBean", "unregisterMBean", "registerMBean");
    private final boolean accessFileGiven;
    private MBeanServer server;

    private RemoteJmxGuard(boolean accessFileGiven) {
        this.accessFileGiven = accessFileGiven;
    }

    /** {@code accessFileGiven}: the JDK's access controller decides on MBean creation ({@code create} clauses). */
    static MBeanServerForwarder newForwarder(boolean accessFileGiven) {
        return (MBeanServerForwarder) Proxy.newProxyInstance(MBeanServerForwarder.class.getClassLoader(),
                new Class<?>[] {MBeanServerForwarder.class}, new RemoteJmxGuard(accessFileGiven));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("getMBeanServer") && args == null) {
            return server;
        }
        if (name.equals("setMBeanServer")) {
            if (args[0] == null) {
                throw new IllegalArgumentException("null MBeanServer");
            }
            server = (MBeanServer) args[0];
            return null;
        }
        if (!accessFileGiven && MBEAN_LIFECYCLE.contains(name)) {
            refuse(name + " " + args[0], "MBeans cannot be created or removed over JMX here");
        }
        if (name.equals("invoke") && args[0] instanceof ObjectName bean && args[1] instanceof String operation) {
            Set<String> refused = REFUSED.get(bean.getCanonicalName());
            if (refused != null && (refused.isEmpty() || refused.contains(operation))) {
                refuse(bean + " " + operation, operation + " is not available over remote JMX (a heap dump or "
                        + "diagnostic command exposes the process's keys); run jcmd on the host");
            }
        }
        try {
            return method.invoke(server, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void refuse(String what, String reason) {
        LOG.warn("remote JMX refused: {}", what);
        throw new SecurityException(reason);
    }
}
