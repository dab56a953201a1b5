package org.gridcache.door.webdav;

import io.milton.config.HttpManagerBuilder;
import io.milton.http.AuthenticationHandler;
import io.milton.http.HttpManager;
import io.milton.http.Request;
import io.milton.http.ResourceFactory;
import io.milton.http.values.ValueWriter;
import io.milton.http.values.ValueWriters;
import io.milton.property.PropertySource;
import io.milton.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Milton configured for the PROPFINDs the filter lets through (writes never reach Milton: see DoorWrites): our
 * resource factory only (never Milton's default file system factory, which would serve {@code user.home}), no Basic/Digest/Form/Cookie/OAuth2 authentication (the door authenticates in
 * front of Milton), no compression, no JSON, and no cookie signing key file in {@code java.io.tmpdir}.
 */
final class DoorHttpManagerBuilder extends HttpManagerBuilder {

    static HttpManager build(ResourceFactory factory) {
        return build(factory, List.of());
    }

    /** {@code properties}: properties besides Milton's (dCache's {@code Checksums}, quota, dead properties), asked in order after Milton's. */
    static HttpManager build(ResourceFactory factory, List<PropertySource> properties) {
        DoorHttpManagerBuilder builder = new DoorHttpManagerBuilder();
        builder.setExtraPropertySources(properties);
        List<ValueWriter> writers = new ArrayList<>();
        writers.add(new LockProperties.Writer()); // lockdiscovery and supportedlock are XML, not text to escape
        writers.addAll(new ValueWriters().getValueWriters());
        ValueWriters values = new ValueWriters(writers);
        builder.setValueWriters(values);
        builder.setPropFindXmlGenerator(new DoorMultistatus(values)); // Milton's cannot write a property in no namespace
        builder.setResourceFactory(factory);
        builder.setEnableBasicAuth(false);
        builder.setEnableDigestAuth(false);
        builder.setEnableFormAuth(false);
        builder.setEnableCookieAuth(false);
        builder.setEnableOAuth2(false);
        builder.setEnableOptionsAuth(false);
        builder.setEnableEarlyAuth(false);
        builder.setEnableCompression(false);
        builder.setEnabledJson(false);
        builder.setAuthenticationHandlers(List.of(new NoAuthentication()));
        builder.seteTagGenerator(Resource::getUniqueId); // the origin's ETag as HEAD shows it, not Milton's variant
        return builder.buildHttpManager();
    }

    @Override
    protected void initCookieSigningKeys() {
        // cookie authentication is off: do not create ${java.io.tmpdir}/keys.txt
    }

    /** Supports nothing, so Milton sees every request as unauthenticated; the door's filter decided already. */
    private static final class NoAuthentication implements AuthenticationHandler {
        @Override
        public boolean supports(Resource r, Request request) {
            return false;
        }

        @Override
        public Object authenticate(Resource resource, Request request) {
            return null;
        }

        @Override
        public void appendChallenges(Resource resource, Request request, List<String> challenges) {
            // no challenge: nothing to log in with
        }

        @Override
        public boolean isCompatible(Resource resource, Request request) {
            return false;
        }

        @Override
        public boolean credentialsPresent(Request request) {
            return false;
        }
    }
}
