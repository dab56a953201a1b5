package org.gridcache.door;

import org.gridcache.door.auth.X509SubjectResolver;
import org.gridcache.door.auth.TokenVault;
import org.gridcache.door.auth.SubjectResolver;
import org.gridcache.door.auth.ProxyChainCompletion;
import org.gridcache.door.auth.BearerVerifier;
import org.gridcache.door.auth.BearerSubjectResolver;
import org.gridcache.door.auth.AuthzPolicyFile;
import org.gridcache.door.auth.AuthzPolicy;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.door.auth.token.JwtVerifier;
import org.gridcache.door.auth.token.TokenIssuers;
import org.gridcache.door.auth.macaroon.MacaroonIssuer;
import org.gridcache.door.auth.macaroon.MacaroonRequests;
import org.gridcache.door.auth.macaroon.MacaroonVerifier;
import org.gridcache.door.delegation.CredentialService;
import org.gridcache.door.delegation.Delegation;
import org.gridcache.door.delegation.DelegationService;
import org.gridcache.door.delegation.DelegationStore;
import org.gridcache.door.namespace.OriginIdentities;
import org.gridcache.door.namespace.OriginIdentity;
import org.gridcache.door.read.FileReads;
import org.gridcache.zk.MacaroonSecrets;

/**
 * The door's security parts, made from its {@link DoorSecurity}: the TLS context, the subject resolver, the
 * authorization policy, and (with TLS) the delegation store with its purge timer, the delegation endpoint and the
 * pools' credential endpoint. A plain-HTTP door gets anonymous subjects and none of the delegation parts. Bearer
 * tokens are tried before certificates ({@link BearerSubjectResolver}), each {@link BearerVerifier} in turn. Who holds
 * which key: ARCHITECTURE.md, "Trust model".
 */
public final class DoorGridSecurity implements AutoCloseable {
    private static final long PURGE_SECONDS = 60;
    private final SSLContext serverTls;
    private final SubjectResolver subjects;
    private final Supplier<AuthzPolicy> policy;
    private final DelegationStore store;
    private final DelegationService delegationService;
    private final CredentialService credentialService;
    private final FileReads.Delegations delegations;
    private final OriginIdentities originIdentities;
    private final ScheduledExecutorService purger;
    private final TokenVault tokens;
    private final MacaroonRequests macaroonRequests;

    private DoorGridSecurity(SSLContext serverTls, SubjectResolver subjects, Supplier<AuthzPolicy> policy, DelegationStore store,
                             DelegationService delegationService, CredentialService credentialService,
                             FileReads.Delegations delegations, OriginIdentities originIdentities, ScheduledExecutorService purger,
                             TokenVault tokens, MacaroonRequests macaroonRequests) {
        this.serverTls = serverTls;
        this.subjects = subjects;
        this.policy = policy;
        this.store = store;
        this.delegationService = delegationService;
        this.credentialService = credentialService;
        this.delegations = delegations;
        this.originIdentities = originIdentities;
        this.purger = purger;
        this.tokens = tokens;
        this.macaroonRequests = macaroonRequests;
    }

    /**
     * {@code doorUrl} is read lazily: it is known once the connector is bound. {@code macaroons}: the cluster's root
     * keys (null on a plain-HTTP door), {@code macaroonMaxValidity} the longest a macaroon it issues may live.
     */
    public static DoorGridSecurity start(String doorId, DoorSecurity security, TicketCodec tickets, Supplier<String> doorUrl,
                                  Supplier<List<PoolRecord>> pools, MacaroonSecrets macaroons,
                                  Supplier<Duration> macaroonMaxValidity) throws IOException {
        Supplier<AuthzPolicy> policy;
        if (security.authz() != null) {
            policy = new AuthzPolicyFile(security.authz(), Clock.systemUTC());
        } else {
            AuthzPolicy fixed = security.tls() ? AuthzPolicy.AUTHENTICATED_READ : AuthzPolicy.ALLOW_ALL;
            policy = () -> fixed;
        }
        if (!security.tls()) {
            // no verifier: a token sent to a plain-HTTP door is refused, as it travelled in clear
            return new DoorGridSecurity(null, new BearerSubjectResolver(List.of(), SubjectResolver.ANONYMOUS), policy, null, null, null,
                    FileReads.Delegations.NONE, OriginIdentities.NONE, null, null, new MacaroonRequests(null, doorUrl));
        }
        // every verified token is kept for the pools of a token origin (the credential endpoint hands it out)
        TokenVault tokens = new TokenVault(Clock.systemUTC());
        List<BearerVerifier> bearers = new ArrayList<>();
        if (security.tokenIssuers() != null) {
            bearers.add(tokens.keeping(new JwtVerifier(TokenIssuers.load(security.tokenIssuers(), security.trust()), doorUrl, Clock.systemUTC())));
        }
        DelegationStore store = new DelegationStore(security.trust(), security.delegationDir(), security.maxDelegationLifetime(),
                Clock.systemUTC());
        ScheduledExecutorService purger = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "door-" + doorId + "-delegation-purge");
            t.setDaemon(true);
            return t;
        });
        purger.scheduleWithFixedDelay(store::purge, PURGE_SECONDS, PURGE_SECONDS, TimeUnit.SECONDS);
        FileReads.Delegations delegations = new FileReads.Delegations() {
            @Override
            public Optional<String> delegationOf(GridSubject subject) {
                return sessionDelegation(store, subject).map(Delegation::id);
            }

            @Override
            public String delegationEndpoint() {
                return doorUrl.get() + DelegationService.PATH;
            }

            @Override
            public String credentialEndpoint() {
                return doorUrl.get() + CredentialService.PATH;
            }
        };
        bearers.add(tokens.keeping(new MacaroonVerifier(macaroons, macaroonMaxValidity, Clock.systemUTC())));
        return new DoorGridSecurity(GridTls.server(security.hostCredential()),
                new BearerSubjectResolver(bearers,
                        new X509SubjectResolver(new X509Authenticator(security.trust()), new ProxyChainCompletion(store::certificatesWithSubject))),
                policy, store,
                new DelegationService(store), new CredentialService(store, tickets, doorId, security.poolIdentities(), pools, tokens),
                delegations, new OriginIdentities(subject -> sessionDelegation(store, subject)
                        .map(d -> OriginIdentity.delegation(d.dn(), d.id(), d.notAfter(), d.credential())),
                        delegations::delegationEndpoint, subject -> tokens.get(subject.tokenRef())
                        .map(k -> OriginIdentity.token(subject.tokenRef(), subject.name(), k.expiry(), k.token()))), purger, tokens,
                new MacaroonRequests(new MacaroonIssuer(macaroons, macaroonMaxValidity, Clock.systemUTC()), doorUrl));
    }

    /**
     * The delegation a subject's session may act with; none for a bearer token's subject, which has no DN, nor for a
     * macaroon's whose issuer did not grant it ({@link GridSubject#mayActWithDelegation}).
     */
    private static Optional<Delegation> sessionDelegation(DelegationStore store, GridSubject subject) {
        return !subject.mayActWithDelegation() ? Optional.empty() : store.forSession(subject.dn(), subject.fqans());
    }

    /** The answer to {@code POST} with {@code application/macaroon-request}. */
    public MacaroonRequests macaroonRequests() {
        return macaroonRequests;
    }

    /** Who the door is towards each origin for a subject: its delegation for user-credential mounts. */
    public OriginIdentities originIdentities() {
        return originIdentities;
    }

    /**
     * The bearer tokens this door accepted (null without TLS, where it accepts none): every {@link BearerVerifier}
     * goes through {@link TokenVault#keeping}, so that token origins can be sent the user's token.
     */
    public TokenVault tokens() {
        return tokens;
    }

    public SSLContext serverTls() {
        return serverTls;
    }

    public SubjectResolver subjects() {
        return subjects;
    }

    public Supplier<AuthzPolicy> policy() {
        return policy;
    }

    public DelegationService delegationService() {
        return delegationService;
    }

    public CredentialService credentialService() {
        return credentialService;
    }

    public FileReads.Delegations delegations() {
        return delegations;
    }

    @Override
    public void close() {
        if (purger != null) {
            purger.shutdownNow();
        }
        if (store != null) {
            store.close();
        }
    }
}
