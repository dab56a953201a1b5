package org.gridcache.door.auth.macaroon;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ReadListener;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Requests and responses for the servlet-facing classes, without a server: only what they ask is answered. */
final class Exchanges {
    private Exchanges() {
    }

    /** A request from {@code address}; {@code headers} by name; {@code body} may be empty. */
    static HttpServletRequest request(String method, boolean secure, String address, Map<String, String> headers, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        return (HttpServletRequest) Proxy.newProxyInstance(Exchanges.class.getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "isSecure" -> secure;
                    case "getRemoteAddr" -> address;
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getContentType" -> headers.get("Content-Type");
                    case "getContentLengthLong" -> (long) bytes.length;
                    case "getQueryString" -> headers.get("?");
                    case "getAttribute" -> null; // no client certificate
                    case "getInputStream" -> new ServletInputStream() {
                        @Override
                        public int read() {
                            return in.read();
                        }

                        @Override
                        public boolean isFinished() {
                            return in.available() == 0;
                        }

                        @Override
                        public boolean isReady() {
                            return true;
                        }

                        @Override
                        public void setReadListener(ReadListener listener) {
                            throw new UnsupportedOperationException();
                        }
                    };
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    /** A response that keeps what is written to it. */
    static final class Response {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        final Map<String, String> headers = new HashMap<>();
        int status;
        final HttpServletResponse servlet = (HttpServletResponse) Proxy.newProxyInstance(Exchanges.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "setStatus" -> {
                        status = (Integer) args[0];
                        yield null;
                    }
                    case "setHeader" -> {
                        headers.put((String) args[0], (String) args[1]);
                        yield null;
                    }
                    case "setContentType" -> {
                        headers.put("Content-Type", (String) args[0]);
                        yield null;
                    }
                    case "setContentLength" -> null;
                    case "getOutputStream" -> new ServletOutputStream() {
                        @Override
                        public void write(int b) {
                            body.write(b);
                        }

                        @Override
                        public boolean isReady() {
                            return true;
                        }

                        @Override
                        public void setWriteListener(WriteListener listener) {
                            throw new UnsupportedOperationException();
                        }
                    };
                    default -> throw new UnsupportedOperationException(m.getName());
                });

        String text() {
            return body.toString(StandardCharsets.UTF_8);
        }
    }
}
