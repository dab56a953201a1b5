package org.gridcache.door.http;

import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a URI it cannot parse, an oversized header, an uncaught error) as one text/plain line, like
 * every other refusal of the door: no HTML page, no stack trace, no server version.
 */
final class PlainErrorHandler extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus() > 0 ? response.getStatus() : 500;
        Object message = request.getAttribute(ERROR_MESSAGE);
        String reason = message instanceof String s && !s.isBlank() && status < 500 ? s : HttpStatus.getMessage(status);
        byte[] body = (status + " " + reason.lines().findFirst().orElse("") + "\n").getBytes(StandardCharsets.UTF_8);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, BufferUtil.toBuffer(body), callback);
        return true;
    }
}
