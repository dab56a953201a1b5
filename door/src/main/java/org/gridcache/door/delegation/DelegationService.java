package org.gridcache.door.delegation;

import org.gridcache.door.exchange.DoorRequests;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.gridcache.common.Json;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.RequestBodies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The GridSite delegation interface at {@code /.gridcache/delegation}: SOAP versions 1 and 2 (POST, as
 * {@code htproxyput}, davix and gfal2 speak it) and a small REST flavour for scripts, after FTS:
 * <pre>
 *   GET    /.gridcache/delegation                 the caller's delegations (JSON)
 *   GET    /.gridcache/delegation/ID/request      a PEM certificate request for delegation ID
 *   PUT    /.gridcache/delegation/ID/credential   the PEM chain signed by the caller's proxy
 *   GET    /.gridcache/delegation/ID              its DN and expiry (JSON)
 *   DELETE /.gridcache/delegation/ID              forget it
 * </pre>
 * Every call needs an authenticated caller and only ever touches that caller's own delegations. SOAP calls need a
 * SOAP content type (a cross-site form post gets 415); a DN keeps at most {@value ProxyRequests#MAX_PER_DN} pending
 * certificate requests ({@link ProxyRequests}), makes at most {@link RequestRates#BURST} at once (then one every
 * {@link RequestRates#REFILL}: 429 with {@code Retry-After}) and holds at most {@value DelegationStore#MAX_PER_DN}
 * delegations (507).
 */
public final class DelegationService {
    public static final String PATH = DoorRequests.SERVICES + "/delegation";
    static final String NS_V1 = "http://www.gridsite.org/namespaces/delegation-1";
    static final String NS_V2 = "http://www.gridsite.org/namespaces/delegation-2";
    private static final String SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final int MAX_BODY = 1 << 20;
    private static final String VERSION = "2.0.0";
    private static final Logger LOG = LoggerFactory.getLogger(DelegationService.class);
    private final DelegationStore store;

    public DelegationService(DelegationStore store) {
        this.store = store;
    }

    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject) throws IOException {
        if (subject.anonymous()) {
            throw new DoorException(401, "delegation needs a client certificate or proxy");
        }
        if (!subject.presentedCertificate()) { // a token's subject, or a macaroon's that names the user's DN
            throw new DoorException(403, "delegation needs a client certificate or proxy, not a bearer token");
        }
        String rest = path.equals(PATH) ? "" : path.substring(PATH.length() + 1);
        String method = request.getMethod();
        try {
            if (rest.isEmpty() && method.equals("POST")) {
                requireSoapContentType(request);
                soap(request, response, subject);
            } else if (rest.isEmpty() && method.equals("GET")) {
                list(response, subject);
            } else {
                rest(request, response, method, rest.split("/"), subject);
            }
        } catch (DelegationException e) {
            throw new DoorException(e.status(), e.getMessage(), retryAfter(e));
        }
    }

    /** When a refused client may ask again: a busy door's wait, or the DN's rate ({@link RequestRates}). */
    private static Map<String, String> retryAfter(DelegationException e) {
        if (e.retryAfterSeconds() > 0) {
            return Map.of("Retry-After", String.valueOf(e.retryAfterSeconds()));
        }
        return e.status() == 503 ? Map.of("Retry-After", String.valueOf(ProxyRequests.GENERATION_WAIT.toSeconds())) : Map.of();
    }

    /**
     * SOAP comes as {@code text/xml} (1.1) or {@code application/soap+xml} (1.2), as htproxyput, davix and gfal2 send
     * it. Anything else is refused before the body is read: a browser posts a cross-site form
     * ({@code application/x-www-form-urlencoded}, {@code multipart/form-data}, {@code text/plain}) with the user's
     * client certificate and without asking first, and such a post must not destroy or replace a delegation.
     */
    private static void requireSoapContentType(HttpServletRequest request) {
        String type = request.getContentType();
        String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        if (!mediaType.equals("text/xml") && !mediaType.equals("application/soap+xml")) {
            throw new DoorException(415, "a delegation SOAP call needs Content-Type text/xml or application/soap+xml"
                    + (type == null ? " (none was sent)" : " (not " + mediaType + ")"));
        }
    }

    // --- REST ---

    private void rest(HttpServletRequest request, HttpServletResponse response, String method, String[] parts, GridSubject subject)
            throws IOException, DelegationException {
        String id = ProxyRequests.checkId(parts[0]);
        String dn = subject.dn();
        if (parts.length == 2 && parts[1].equals("request") && method.equals("GET")) {
            String csr = store.request(dn, id);
            send(response, 200, "application/x-pem-file", csr);
        } else if (parts.length == 2 && parts[1].equals("credential") && (method.equals("PUT") || method.equals("POST"))) {
            Delegation d = store.put(dn, id, new String(body(request), StandardCharsets.US_ASCII));
            send(response, 201, "application/json", Json.string(describe(d)));
        } else if (parts.length == 1 && method.equals("GET")) {
            Delegation d = store.get(dn, id).orElseThrow(() -> new DoorException(404, "no delegation " + id));
            send(response, 200, "application/json", Json.string(describe(d)));
        } else if (parts.length == 1 && method.equals("DELETE")) {
            if (!store.destroy(dn, id)) {
                throw new DoorException(404, "no delegation " + id);
            }
            response.setStatus(204);
        } else {
            throw new DoorException(405, method + " is not a delegation operation here");
        }
    }

    private void list(HttpServletResponse response, GridSubject subject) throws IOException {
        List<Map<String, Object>> all = store.of(subject.dn()).stream().map(DelegationService::describe).toList();
        send(response, 200, "application/json", Json.string(all));
    }

    private static Map<String, Object> describe(Delegation d) {
        return Map.of("delegationId", d.id(), "dn", d.dn(), "fqans", d.fqans(), "notAfter", d.notAfter().toString());
    }

    // --- SOAP ---

    private void soap(HttpServletRequest request, HttpServletResponse response, GridSubject subject) throws IOException {
        Element call;
        try {
            call = soapCall(body(request));
        } catch (IllegalArgumentException e) {
            fault(response, NS_V1, 400, "SOAP-ENV:Client", e.getMessage());
            return;
        }
        String ns = call.getNamespaceURI() == null ? NS_V1 : call.getNamespaceURI();
        if (!ns.equals(NS_V1) && !ns.equals(NS_V2)) {
            fault(response, NS_V1, 400, "SOAP-ENV:Client", "unknown namespace " + ns);
            return;
        }
        String op = call.getLocalName();
        String dn = subject.dn();
        try {
            String result = switch (op) {
                case "getNewProxyReq" -> {
                    String[] idAndCsr = store.newRequest(dn, null);
                    yield "<getNewProxyReqReturn><proxyRequest>" + xml(idAndCsr[1]) + "</proxyRequest><delegationID>"
                            + xml(idAndCsr[0]) + "</delegationID></getNewProxyReqReturn>";
                }
                case "getProxyReq" -> "<getProxyReqReturn>" + xml(store.request(dn, idOrDefault(call, dn))) + "</getProxyReqReturn>";
                case "renewProxyReq" -> "<renewProxyReqReturn>" + xml(store.renewRequest(dn, idOrDefault(call, dn))) + "</renewProxyReqReturn>";
                case "putProxy" -> {
                    store.put(dn, idOrDefault(call, dn), child(call, "proxy"));
                    yield "";
                }
                case "getTerminationTime" -> "<getTerminationTimeReturn>"
                        + DateTimeFormatter.ISO_INSTANT.format(store.terminationTime(dn, idOrDefault(call, dn))) + "</getTerminationTimeReturn>";
                case "destroy" -> {
                    store.destroy(dn, idOrDefault(call, dn));
                    yield "";
                }
                case "getVersion" -> "<getVersionReturn>" + VERSION + "</getVersionReturn>";
                case "getInterfaceVersion" -> "<getInterfaceVersionReturn>" + (ns.equals(NS_V2) ? "2.0.0" : "1.1.0") + "</getInterfaceVersionReturn>";
                case "getServiceMetadata" -> "<getServiceMetadataReturn>" + xml(metadata(child(call, "key"))) + "</getServiceMetadataReturn>";
                default -> throw new DelegationException(400, "unknown delegation operation " + op);
            };
            String envelope = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV=\"" + SOAP_ENV
                    + "\" xmlns:ns=\"" + ns + "\"><SOAP-ENV:Body><ns:" + op + "Response>" + result + "</ns:" + op
                    + "Response></SOAP-ENV:Body></SOAP-ENV:Envelope>\n";
            send(response, 200, "text/xml; charset=utf-8", envelope);
        } catch (DelegationException e) {
            LOG.info("delegation {} by {} refused: {}", op, dn, e.getMessage());
            // a SOAP fault is a 500; a limit keeps its own status, so a client (or its operator) sees it is one
            retryAfter(e).forEach(response::setHeader);
            fault(response, ns, e.status() == 429 || e.status() == 507 ? e.status() : 500,
                    e.status() >= 500 ? "SOAP-ENV:Server" : "SOAP-ENV:Client", e.getMessage());
        }
    }

    /** GridSite's clients send an empty id for "the default delegation of this DN". */
    private static String idOrDefault(Element call, String dn) {
        String id = child(call, "delegationID");
        return id == null || id.isEmpty() ? "default" : id;
    }

    private static String metadata(String key) {
        if (key == null) {
            return "";
        }
        return switch (key) {
            case "glue2.Endpoint.InterfaceName" -> "org.gridsite.delegation";
            case "glue2.Endpoint.InterfaceVersion" -> "2.0.0";
            case "glue2.Endpoint.Implementor" -> "gridcache";
            default -> "";
        };
    }

    static Element soapCall(byte[] body) {
        Document doc;
        try {
            doc = safeParser().parse(new ByteArrayInputStream(body));
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException("malformed SOAP request");
        }
        Element envelope = doc.getDocumentElement();
        if (!"Envelope".equals(envelope.getLocalName())) {
            throw new IllegalArgumentException("not a SOAP envelope");
        }
        Element bodyElement = firstChildElement(envelope, "Body");
        Element call = bodyElement == null ? null : firstChildElement(bodyElement, null);
        if (call == null) {
            throw new IllegalArgumentException("SOAP body names no operation");
        }
        return call;
    }

    /** A namespace-aware parser that refuses DOCTYPEs and never resolves external entities (no XXE). */
    static DocumentBuilder safeParser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("XML parser lacks a security feature", e);
        }
    }

    private static Element firstChildElement(Element parent, String localName) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && (localName == null || localName.equals(e.getLocalName()))) {
                return e;
            }
        }
        return null;
    }

    private static String child(Element call, String localName) {
        Element e = firstChildElement(call, localName);
        return e == null ? null : e.getTextContent().trim();
    }

    private static void fault(HttpServletResponse response, String ns, int status, String code, String message) throws IOException {
        String envelope = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV=\"" + SOAP_ENV
                + "\" xmlns:ns=\"" + ns + "\"><SOAP-ENV:Body><SOAP-ENV:Fault><faultcode>" + code + "</faultcode><faultstring>"
                + xml(message) + "</faultstring><detail><ns:DelegationException><message>" + xml(message)
                + "</message></ns:DelegationException></detail></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>\n";
        send(response, status, "text/xml; charset=utf-8", envelope);
    }

    private static byte[] body(HttpServletRequest request) throws IOException {
        return RequestBodies.read(request, MAX_BODY, "delegation call");
    }

    private static void send(HttpServletResponse response, int status, String type, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(type);
        response.setContentLength(b.length);
        response.getOutputStream().write(b);
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String isoTime(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t);
    }
}
