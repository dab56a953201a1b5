package org.gridcache.door;

import java.lang.reflect.Method;
import org.slf4j.LoggerFactory;

/**
 * Milton logs every request at INFO. When the logging backend is Logback (the distribution's), lower the
 * {@code io.milton} loggers to WARN unless a configuration already set them; other backends are left alone.
 * Reflection keeps Logback out of the door's compile dependencies.
 */
final class MiltonLogging {
    private MiltonLogging() {
    }

    static void quiet() {
        Object logger = LoggerFactory.getLogger("io.milton");
        if (!logger.getClass().getName().equals("ch.qos.logback.classic.Logger")) {
            return;
        }
        try {
            Method getLevel = logger.getClass().getMethod("getLevel");
            if (getLevel.invoke(logger) != null) {
                return; // configured explicitly: the admin's choice wins
            }
            Class<?> level = Class.forName("ch.qos.logback.classic.Level", true, logger.getClass().getClassLoader());
            logger.getClass().getMethod("setLevel", level).invoke(logger, level.getField("WARN").get(null));
        } catch (ReflectiveOperationException | LinkageError e) {
            // not the Logback we know: leave logging as configured
        }
    }
}
