package org.gridcache.common;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.Attribute;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers gridcache's MXBeans (domain {@code org.gridcache}) in the platform MBean server, where jconsole,
 * VisualVM, jmxterm and the remote connector of {@code --jmx-port} find them.
 *
 * <p>JMX reads a method {@code void setX(v)} as the writer of attribute X, never as an operation. Admins expect
 * {@code drain()}-style operations for state changes too, so every writable attribute is also offered as the
 * operation {@code setX(v)}: {@code set ReadOnly true} and {@code run setReadOnly true} do the same.
 */
public final class Mbeans {
    public static final String DOMAIN = "org.gridcache";
    private static final Logger LOG = LoggerFactory.getLogger(Mbeans.class);

    private Mbeans() {
    }

    public static ObjectName name(String properties) {
        try {
            return new ObjectName(DOMAIN + ":" + properties);
        } catch (JMException e) {
            throw new IllegalArgumentException("bad MBean name " + properties + ": " + e.getMessage(), e);
        }
    }

    /**
     * Registers {@code bean} as an MXBean of interface {@code type}; the returned handle unregisters it. A name that is
     * taken already (a second door in one JVM, as in tests) is logged and left to its first owner.
     */
    public static <T> AutoCloseable register(String properties, Class<T> type, T bean) {
        ObjectName name = name(properties);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            server.registerMBean(new SetterOperations<>(bean, type), name);
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("JMX: {} is registered already (another node in this JVM); not registering this one", name);
            return () -> { };
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + name + ": " + e.getMessage(), e);
        }
        return () -> {
            try {
                server.unregisterMBean(name);
            } catch (JMException e) {
                LOG.debug("JMX: {} was gone already", name);
            }
        };
    }

    /** An MXBean that also answers {@code setX(v)} as an operation for every writable attribute X. */
    private static final class SetterOperations<T> extends StandardMBean {
        SetterOperations(T bean, Class<T> type) {
            super(bean, type, true);
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            MBeanInfo info = super.getMBeanInfo();
            List<MBeanOperationInfo> ops = new ArrayList<>(List.of(info.getOperations()));
            for (MBeanAttributeInfo a : info.getAttributes()) {
                if (a.isWritable()) {
                    ops.add(new MBeanOperationInfo("set" + a.getName(), "sets the attribute " + a.getName(),
                            new MBeanParameterInfo[] {new MBeanParameterInfo("value", a.getType(), a.getDescription())},
                            "void", MBeanOperationInfo.ACTION, a.getDescriptor()));
                }
            }
            return new MBeanInfo(info.getClassName(), info.getDescription(), info.getAttributes(), info.getConstructors(),
                    ops.toArray(MBeanOperationInfo[]::new), info.getNotifications(), info.getDescriptor());
        }

        @Override
        public Object invoke(String action, Object[] params, String[] signature) throws javax.management.MBeanException,
                ReflectionException {
            if (action.startsWith("set") && params != null && params.length == 1 && isWritable(action.substring(3))) {
                try {
                    setAttribute(new Attribute(action.substring(3), params[0]));
                } catch (javax.management.AttributeNotFoundException | javax.management.InvalidAttributeValueException e) {
                    throw new ReflectionException(e, e.getMessage());
                }
                return null;
            }
            return super.invoke(action, params, signature);
        }

        private boolean isWritable(String attribute) {
            for (MBeanAttributeInfo a : super.getMBeanInfo().getAttributes()) {
                if (a.getName().equals(attribute) && a.isWritable()) {
                    return true;
                }
            }
            return false;
        }
    }
}
