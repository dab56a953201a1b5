#!/usr/bin/env python3
"""Writes the hostile-request corpus, one case a line: python3 hostile-requests.py hostile-requests.txt (edit here)."""
import re, sys

cases = []  # (target, expect, name, raw bytes as str with escapes)

def esc(s):
    out = []
    for ch in s:
        if ch == '\\': out.append('\\\\')
        elif ch == '\r': out.append('\\r')
        elif ch == '\n': out.append('\\n')
        elif ch == '\t': out.append('\\t')
        elif ord(ch) < 0x20 or ord(ch) == 0x7f or ord(ch) > 0x7e: out.append('\\x%02x' % ord(ch))
        else: out.append(ch)
    return ''.join(out)

def add(target, expect, name, raw):
    assert '\t' not in name and '|' not in name and 'lenient' not in expect
    statuses, _, flags = expect.partition(' ')
    expect = '|'.join(dict.fromkeys(statuses.split('|'))) + (' ' + flags if flags else '')
    for t in (['door', 'pool'] if target == 'both' else [target]):
        cases.append((t, expect, name, raw))

def rep(n, s):
    # written as the corpus' repeat macro, expanded by the runner
    return '{%d*%s}' % (n, s)

def expanded_len(s):
    return len(re.sub(r'\{(\d+)\*([^}]*)\}', lambda m: m.group(2) * int(m.group(1)), s).encode('latin-1'))

H = 'Host: 127.0.0.1\r\n'
def req(line, headers='', body=''):
    return line + '\r\n' + H + headers + '\r\n' + body

# the benign files: door paths are names at the origin; the pool's need a ticket ({ticket} is /f.bin's)
F = {'door': '/f.bin', 'pool': '/f.bin?{ticket}'}
OK = {'door': '302', 'pool': '200'}

def both(expect, name, build, pool_expect=None):
    """A case for door and pool, `build` given the benign target; "lenient": the pool may serve it (RFC 9112 §3, §5.2)."""
    add('door', expect.replace('|lenient', ''), name, build(F['door']))
    add('pool', (pool_expect or expect).replace('lenient', '200'), name, build(F['pool']))

# ---- baselines: a well-formed request is served (proves the harness and the placeholders)
both('302', 'baseline GET', lambda p: req('GET %s HTTP/1.1' % p), '200')
both('200', 'baseline HEAD', lambda p: req('HEAD %s HTTP/1.1' % p))
both('302', 'baseline HTTP/1.0', lambda p: 'GET %s HTTP/1.0\r\n\r\n' % p, '200')
add('door', '200', 'health', req('GET /.gridcache/health HTTP/1.1'))
add('pool', '200', 'health', req('GET /.gridcache/health HTTP/1.1'))
add('door', '207', 'baseline PROPFIND depth 1', req('PROPFIND / HTTP/1.1', 'Depth: 1\r\nContent-Length: 0\r\n'))

# ---- request line
for name, line, exp in [
    ('empty target', 'GET  HTTP/1.1', '400'),
    ('HTTP/2.0', 'GET %s HTTP/2.0', '400'),
    ('lowercase version', 'GET %s http/1.1', '400'),
    ('HTTP/3.0', 'GET %s HTTP/3.0', '400'),
    ('HTTP/0.1', 'GET %s HTTP/0.1', '400'),
    ('HTTP/9.9', 'GET %s HTTP/9.9', '400'),
    ('HTTP/1.10', 'GET %s HTTP/1.10', '400'),
    ('HTTP/01.1', 'GET %s HTTP/01.1', '400'),
    ('HTTP/1', 'GET %s HTTP/1', '400'),
    ('HTTP/1.1.1', 'GET %s HTTP/1.1.1', '400'),
    ('HTXP version', 'GET %s HTXP/1.1', '400'),
    ('version with trailing space', 'GET %s HTTP/1.1 ', '400'),
    ('version with trailing tab', 'GET %s HTTP/1.1\t', '400'),
    ('no version', 'GET %s', '400|close'),
    ('only method', 'GET', '400|close'),
    ('two spaces after method', 'GET  %s HTTP/1.1', '400|lenient'),
    ('two spaces before version', 'GET %s  HTTP/1.1', '400|lenient'),
    ('tab separators', 'GET\t%s\tHTTP/1.1', '400|lenient'),
    ('leading space', ' GET %s HTTP/1.1', '400|lenient'),
    ('space in target', 'GET /a b HTTP/1.1', '400'),
    ('NUL in target', 'GET /f\x00.bin HTTP/1.1', '400'),
    ('CTL in target', 'GET /f\x01.bin HTTP/1.1', '400'),
    ('DEL in target', 'GET /f\x7f.bin HTTP/1.1', '400'),
    ('high bytes in target', 'GET /f\xe9\xff.bin HTTP/1.1', '400|404'),
    ('bare CR in request line', 'GET /f.bin\rX HTTP/1.1', '400'),
    ('asterisk GET', 'GET * HTTP/1.1', '400'),
    ('relative target', 'GET f.bin HTTP/1.1', '400'),
    ('authority form GET', 'GET 127.0.0.1:80 HTTP/1.1', '400'),
    ('unknown method', 'FOOBAR %s HTTP/1.1', '501'),
    ('lowercase method', 'get %s HTTP/1.1', '501'),
    ('mixed case method', 'Get %s HTTP/1.1', '501'),
    ('method with slash', 'GE/T %s HTTP/1.1', '400|501'),
    ('method with NUL', 'GE\x00T %s HTTP/1.1', '400|501'),
    ('method 33 bytes', 'A' * 33 + ' %s HTTP/1.1', '400|501'),
    ('method 100 kB', rep(100000, 'A') + ' %s HTTP/1.1', '400|501|close'),
    ('CONNECT', 'CONNECT 127.0.0.1:22 HTTP/1.1', '400|405|501'),
    ('TRACE', 'TRACE %s HTTP/1.1', '405|501'),
    ('TRACK', 'TRACK %s HTTP/1.1', '501'),
    ('DEBUG', 'DEBUG %s HTTP/1.1', '501'),
    ('PRI preface', 'PRI * HTTP/2.0', '400|close'),
    ('target 20 kB', 'GET /' + rep(20000, 'a') + ' HTTP/1.1', '404|414|400|431|403'),
    ('target 100 kB', 'GET /' + rep(100000, 'a') + ' HTTP/1.1', '414|400|431|close'),
    ('query 100 kB', 'GET /f.bin?' + rep(100000, 'a') + ' HTTP/1.1', '414|400|431|close'),
    ('HTTP/0.9 line', 'GET %s', '400|close'),
]:
    both(exp, name, lambda p, line=line: req(line.replace('%s', p)))

both('400|lenient', 'empty lines flood 64 kB', lambda p: rep(32768, '\r\n') + req('GET %s HTTP/1.1' % p))
both('302', 'one empty line before the request', lambda p: '\r\n' + req('GET %s HTTP/1.1' % p), '200')
both('400|close', 'only empty lines', lambda p: rep(100, '\r\n'))
both('400|close', 'binary garbage', lambda p: '\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03' + rep(64, '\x00'))
both('400|close', 'TLS hello on plain port', lambda p: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' + rep(500, '\x41'))
both('400|close', 'SSH banner', lambda p: 'SSH-2.0-OpenSSH_9.6\r\n')
both('400|close', 'NUL bytes', lambda p: rep(1000, '\x00'))

# ---- paths (door: 400 for a bad one, 404 for a name that is not there; pool: 400 or 403 as its ticket does not match)
for name, path, exp in [
    ('dot dot', '/../../etc/passwd', '400'),
    ('dot dot in middle', '/dir/../../etc/passwd', '400'),
    ('encoded dot dot', '/%2e%2e/%2e%2e/etc/passwd', '400'),
    ('encoded dot dot mixed', '/.%2e/etc/passwd', '400'),
    ('double encoded dot dot', '/%252e%252e/etc/passwd', '400|404|403'),
    ('overlong UTF-8 dot', '/%c0%ae%c0%ae/etc/passwd', '400|404|403'),
    ('encoded slash', '/dir%2f..%2f..%2fetc%2fpasswd', '400|404|403'),
    ('backslash dot dot', '/..\\..\\etc\\passwd', '400|404|403'),
    ('encoded backslash', '/..%5c..%5cetc%5cpasswd', '400|404|403'),
    ('encoded NUL', '/f.bin%00.txt', '400'),
    ('encoded CR LF', '/f.bin%0d%0aSet-Cookie:%20x=y', '400|404|403'),
    ('bad percent escape', '/f%zz.bin', '400'),
    ('truncated percent escape', '/f.bin%', '400'),
    ('truncated percent escape 2', '/f.bin%4', '400'),
    ('invalid UTF-8 escape', '/f%ff%fe.bin', '400|404|403'),
    ('double slash', '//etc/passwd', '400|404|403'),
    ('dot segment', '/./f.bin', '302|400|404|403|200'),
    ('fragment in target', '/f.bin#frag', '400|302|404|403'),
    ('absolute file URI', 'file:///etc/passwd', '400|404|403'),
    ('absolute other host', 'http://evil.example/f.bin', '302|400|404|403'),
    ('absolute userinfo', 'http://user:pw@127.0.0.1/f.bin', '400|302|403|404'),
    ('semicolon path param', '/f.bin;jsessionid=x', '400|404|302|403'),
    ('semicolon dot dot', '/..;/..;/etc/passwd', '400|404|403'),
    ('deep path', '/' + 'a/' * 2000 + 'f', '400|404|414|403'),
    ('not there', '/no-such-file.bin', '404'),
    ('long name 300 bytes', '/' + 'n' * 300, '404|400|403'),
    ('unicode name', '/%e2%80%ae.bin', '404|403'),
]:
    add('door', exp.replace('|403', ''), 'path ' + name, req('GET %s HTTP/1.1' % path))
    # a pool's ticket opens exactly the path it names: never 200 for another spelling of it
    pexp = '|'.join(sorted(set(exp.replace('302', '403').replace('404', '403').split('|') + ['400']) - {'200'}))
    add('pool', pexp, 'path ' + name, req('GET %s HTTP/1.1' % (path + ('&' if '?' in path else '?') + '{ticket}')))
add('pool', '403', 'path trailing slash on a ticket without one', req('GET /f.bin/?{ticket} HTTP/1.1'))
# door services
for name, path, exp in [
    ('service traversal', '/.gridcache/../.gridcache/health', '400'),
    ('service unknown', '/.gridcache/nothing', '404'),
    ('service status', '/.gridcache/status', '200'),
    ('service pools api', '/.gridcache/api/v1/pools', '200'),
    ('service metrics', '/.gridcache/metrics', '200'),
    ('service credential anonymous', '/.gridcache/credential', '400|401|403|404'),
    ('service credential traversal', '/.gridcache/credential/../../etc/passwd', '400'),
    ('service delegation GET', '/.gridcache/delegation', '400|401|403|404|405'),
]:
    add('door', exp, name, req('GET %s HTTP/1.1' % path))
add('door', '405', 'service health POST', req('POST /.gridcache/health HTTP/1.1', 'Content-Length: 0\r\n'))
add('pool', '400|404|405|403', 'pool service traversal', req('GET /.gridcache/../f.bin HTTP/1.1'))
add('pool', '403|404', 'pool unknown service', req('GET /.gridcache/nothing HTTP/1.1'))

# ---- headers
for name, headers, exp in [
    ('no Host on HTTP/1.1', None, '400'),
    ('two Host headers', 'Host: a\r\n', '400'),
    ('empty Host', 'X: y\r\n', None),
    ('header without colon', 'NoColon\r\n', '400'),
    ('space before colon', 'X-Test : y\r\n', '400'),
    ('tab before colon', 'X-Test\t: y\r\n', '400'),
    ('obs-fold', 'X-Test: a\r\n  folded\r\n', '400|lenient'),
    ('obs-fold first header', None, '400'),
    ('NUL in header value', 'X-Test: a\x00b\r\n', '400'),
    ('CR in header value', 'X-Test: a\rb\r\n', '400'),
    ('CTL in header name', 'X-\x01Test: y\r\n', '400'),
    ('empty header name', ': y\r\n', '400'),
    ('header name with space', 'X Test: y\r\n', '400'),
    ('header name with slash', 'X/Test: y\r\n', '400'),
    ('high bytes in value', 'X-Test: \xe9\xff\r\n', 'OK'),
    ('header 100 kB', 'X-Big: ' + rep(100000, 'a') + '\r\n', '431|400|close'),
    ('header 20 kB', 'X-Big: ' + rep(20000, 'a') + '\r\n', '431|400|OK'),
    ('1000 headers', rep(1000, 'X-Many: y\r\n'), '431|400|OK'),
    ('10000 headers', rep(10000, 'X-M: y\r\n'), '431|400|close'),
    ('long header name', rep(10000, 'X') + ': y\r\n', '431|400|OK'),
    ('bare LF line endings', None, '400|OK'),
    ('bare CR line endings', None, '400|close'),
    ('Expect 100-continue no body', 'Expect: 100-continue\r\n', 'OK'),
    ('Expect unknown', 'Expect: 200-ok\r\n', '417|OK'),
    ('Connection upgrade h2c', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n', 'OK|400'),
    ('Upgrade websocket', 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n', 'OK|400'),
    ('Authorization garbage Bearer', 'Authorization: Bearer ' + rep(3000, 'x') + '\r\n', 'OK|400|401'),
    ('Authorization Basic garbage', 'Authorization: Basic !!!notbase64\r\n', 'OK|400|401'),
    ('Authorization unknown scheme', 'Authorization: Negotiate YIIB\r\n', 'OK|400|401'),
    ('Authorization 10 kB', 'Authorization: Bearer ' + rep(10000, 'a.') + '\r\n', 'OK|400|401|431'),
    ('Authorization empty', 'Authorization:\r\n', 'OK|400|401'),
    ('Authorization JWT alg none', 'Authorization: Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.\r\n', 'OK|400|401'),
    ('X-Forwarded-For spoof', 'X-Forwarded-For: 10.0.0.1, ' + rep(500, '1.1.1.1, ') + '\r\n', 'OK'),
    ('Forwarded junk', 'Forwarded: for="[::1]:80";by=\x7f\r\n', 'OK|400'),
    ('Cookie junk', 'Cookie: ' + rep(500, 'a=b; ') + '\r\n', 'OK'),
    ('Accept-Encoding junk', 'Accept-Encoding: gzip;q=2, *;q=-1, ' + rep(200, 'x,') + '\r\n', 'OK'),
    ('Want-Digest junk', 'Want-Digest: adler32;q=abc, md5;q=-1, ' + rep(100, 'sha,') + '\r\n', 'OK|400'),
    ('If-Modified-Since junk', 'If-Modified-Since: yesterday-ish\r\n', 'OK'),
    ('If-None-Match junk', 'If-None-Match: "unterminated\r\n', 'OK|400'),
    ('If-Range junk', 'If-Range: ' + rep(100, '"') + '\r\nRange: bytes=0-1\r\n', 'OK|206|400'),
    ('TE header trailers', 'TE: trailers, deflate;q=0.5\r\n', 'OK'),
    ('Max-Forwards junk', 'Max-Forwards: -1\r\n', 'OK|400'),
    ('Content-Type junk', 'Content-Type: ' + rep(200, ';') + '\r\n', 'OK|400'),
    ('Accept junk', 'Accept: */*;q=nope, text/html;level=' + rep(100, '9') + '\r\n', 'OK'),
    ('User-Agent 8 kB', 'User-Agent: ' + rep(8000, 'U') + '\r\n', 'OK|431'),
]:
    def build(p, name=name, headers=headers):
        if name == 'no Host on HTTP/1.1':
            return 'GET %s HTTP/1.1\r\n\r\n' % p
        if name == 'empty Host':
            return 'GET %s HTTP/1.1\r\nHost:\r\n\r\n' % p
        if name == 'obs-fold first header':
            return 'GET %s HTTP/1.1\r\n folded\r\nHost: x\r\n\r\n' % p
        if name == 'bare LF line endings':
            return 'GET %s HTTP/1.1\nHost: x\n\n' % p
        if name == 'bare CR line endings':
            return 'GET %s HTTP/1.1\rHost: x\r\r' % p
        return req('GET %s HTTP/1.1' % p, headers)
    e = exp
    if name == 'empty Host':
        e = 'OK|400'
    de = e.replace('OK', '302').replace('|lenient', '')
    pe = e.replace('OK', '200').replace('lenient', '200')
    add('door', de, 'header ' + name, build(F['door']))
    add('pool', pe, 'header ' + name, build(F['pool']))
for name, host in [('Host with space', 'a b'), ('Host with slash', 'a/b'), ('Host with userinfo', 'u@h'),
                   ('Host port junk', 'h:99999999'), ('Host 8 kB', 'h' * 8000), ('Host NUL', 'h\x00x'),
                   ('Host IPv6 unterminated', '[::1'), ('Host two ports', 'h:1:2')]:
    both('400|431|302|lenient' if len(host) > 100 else '400|431', 'header ' + name, lambda p, host=host: 'GET %s HTTP/1.1\r\nHost: %s\r\n\r\n' % (p, host))

# ---- framing
def body_case(name, method, headers, body, exp_door, exp_pool):
    if 'chunked' in name:
        exp_door += '|302'  # a GET's body is not read before the door redirects; the connection then closes
    add('door', exp_door, 'framing ' + name, '%s /f.bin HTTP/1.1\r\n%s%s\r\n%s' % (method, H, headers, body))
    add('pool', exp_pool, 'framing ' + name, '%s /f.bin?{ticket} HTTP/1.1\r\n%s%s\r\n%s' % (method, H, headers, body))

for name, headers, body, d, p in [
    ('negative Content-Length', 'Content-Length: -1\r\n', '', '400', '400'),
    ('non-numeric Content-Length', 'Content-Length: abc\r\n', '', '400', '400'),
    ('Content-Length with plus', 'Content-Length: +5\r\n', 'hello', '400', '400'),
    ('Content-Length hex', 'Content-Length: 0x5\r\n', 'hello', '400', '400'),
    ('Content-Length list', 'Content-Length: 5, 5\r\n', 'hello', '400|302', '400|200'),
    ('Content-Length differing pair', 'Content-Length: 5\r\nContent-Length: 6\r\n', 'hello!', '400', '400'),
    ('Content-Length overflow', 'Content-Length: 99999999999999999999999\r\n', '', '400|413', '400|413'),
    ('Content-Length 2^63', 'Content-Length: 9223372036854775808\r\n', '', '400|413', '400|413'),
    ('Content-Length empty', 'Content-Length:\r\n', '', '400', '400'),
    ('Content-Length with space inside', 'Content-Length: 1 0\r\n', '', '400', '400'),
    ('GET body 1 MB announced', 'Content-Length: 1048576\r\n', rep(1048576, 'z'), '302|400|413|close', '200|400|413|close'),
    ('Transfer-Encoding gzip', 'Transfer-Encoding: gzip\r\n', '', '400|501', '400|501'),
    ('Transfer-Encoding unknown', 'Transfer-Encoding: foo\r\n', '', '400|501', '400|501'),
    ('Transfer-Encoding chunked then gzip', 'Transfer-Encoding: chunked, gzip\r\n', '', '400|501', '400|501'),
    ('Transfer-Encoding chunked twice', 'Transfer-Encoding: chunked, chunked\r\n', '0\r\n\r\n', '400|501', '400|501'),
    ('Transfer-Encoding on HTTP/1.0', None, None, '400|302|501', '400|200|501'),
    ('Transfer-Encoding empty', 'Transfer-Encoding:\r\n', '', '400|501|302', '400|501|200'),
    ('chunked bad size', 'Transfer-Encoding: chunked\r\n', 'zz\r\nhello\r\n0\r\n\r\n', '400', '400'),
    ('chunked size overflow', 'Transfer-Encoding: chunked\r\n', 'ffffffffffffffffffff\r\nhello\r\n0\r\n\r\n', '400|413', '400|413'),
    ('chunked negative size', 'Transfer-Encoding: chunked\r\n', '-5\r\nhello\r\n0\r\n\r\n', '400', '400'),
    ('chunked size with space', 'Transfer-Encoding: chunked\r\n', '5 \r\nhello\r\n0\r\n\r\n', '400|302', '400|200'),
    ('chunked huge extension', 'Transfer-Encoding: chunked\r\n', '5;' + rep(100000, 'e') + '\r\nhello\r\n0\r\n\r\n', '400|413|431|close', '400|413|431|close'),
    ('chunked missing CRLF after data', 'Transfer-Encoding: chunked\r\n', '5\r\nhelloXX0\r\n\r\n', '400', '400'),
    ('chunked LF only', 'Transfer-Encoding: chunked\r\n', '5\nhello\n0\n\n', '400|302', '400|200'),
    ('chunked trailer junk', 'Transfer-Encoding: chunked\r\n', '0\r\nX Bad Trailer\r\n\r\n', '400', '400'),
    ('chunked trailer 100 kB', 'Transfer-Encoding: chunked\r\n', '0\r\nX: ' + rep(100000, 't') + '\r\n\r\n', '400|413|431|close', '400|413|431|close'),
    ('chunked 2 MB on GET', 'Transfer-Encoding: chunked\r\n', '200000\r\n' + rep(2097152, 'c') + '\r\n0\r\n\r\n', '302|400|413|close', '200|400|413|close'),
]:
    if name == 'Transfer-Encoding on HTTP/1.0':
        add('door', d, 'framing ' + name, 'GET /f.bin HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n')
        add('pool', p, 'framing ' + name, 'GET /f.bin?{ticket} HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n')
        continue
    body_case(name, 'GET', headers, body, d, p)

# ---- smuggling: a hidden request whose execution would show (door: the origin is asked for a path with "smuggled";
# pool: a second response); "once" = at most one response on the connection
def hidden(target, n):
    if target == 'door':
        return 'GET /smuggled-%d.bin HTTP/1.1\r\nHost: x\r\n\r\n' % n
    return 'GET /smuggled/p.bin HTTP/1.1\r\nHost: x\r\n\r\n'

n = 0
for target in ('door', 'pool'):
    path = F[target]
    ok = OK[target]
    for name, build, exp in [
        ('CL.TE', lambda h: 'POST %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE.CL', lambda h: 'POST %s HTTP/1.1\r\n%sContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n' % (path, H, len(h), h), '400'),
        ('CL.TE on GET', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE.CL on GET', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n' % (path, H, len(h), h), '400'),
        ('TE space before colon', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE tab value', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE xchunked', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400|501'),
        ('TE chunked with junk', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: chunked;x=1\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400|501'),
        ('TE obs-fold', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE twice', lambda h: 'GET %s HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\nContent-Length: %d\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400|501'),
        ('TE uppercase CHUNKED', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: CHUNKED\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE NUL', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding: chunked\x00\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('TE vertical tab', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nTransfer-Encoding:\x0bchunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400|501'),
        ('two CL first small', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: 0\r\nContent-Length: %d\r\n\r\n%s' % (path, H, len(h), h), '400'),
        ('two CL first large', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nContent-Length: 0\r\n\r\n%s' % (path, H, len(h), h), '400'),
        ('CL in body of GET', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s' % (path, H, len(h), h), ok + '|400|413'),
        ('CL with leading zeros', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: 000%d\r\n\r\n%s' % (path, H, len(h), h), ok + '|400'),
        ('CL obs-fold', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length:\r\n %d\r\n\r\n%s' % (path, H, len(h), h), '400'),
        ('bare LF before hidden', lambda h: 'GET %s HTTP/1.1\r\n%sContent-Length: %d\r\nX: y\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n%s' % (path, H, 5 + len(h), h), '400'),
        ('bare CR header split', lambda h: 'GET %s HTTP/1.1\r\n%sX: y\rContent-Length: %d\r\n\r\n%s' % (path, H, len(h), h), '400'),
        ('chunk size LF-only smuggle', lambda h: 'GET %s HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n%x;\n%s\r\n0\r\n\r\n' % (path, H, len(h), h), '400|' + ok),
        ('Expect 100 with hidden body', lambda h: 'GET %s HTTP/1.1\r\n%sExpect: 100-continue\r\nContent-Length: %d\r\n\r\n%s' % (path, H, len(h), h), ok + '|400|417|413'),
        ('HTTP/1.0 keep-alive CL body', lambda h: 'GET %s HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: %d\r\n\r\n%s' % (path, len(h), h), ok + '|400|413'),
        ('chunked zero then hidden in trailer', lambda h: 'GET %s HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n0\r\n%s' % (path, H, h.replace('\r\n\r\n', '\r\n') + '\r\n'), '400|' + ok),
    ]:
        n += 1
        if target == 'pool':
            exp += '|200|405'  # served or refused, then closed: "once" proves the hidden request was not read
        add(target, exp + ' once', 'smuggle ' + name, build(hidden(target, n)))

# ---- ranges (door redirects whatever the range; pool answers it)
for name, rng, pool_exp in [
    ('reversed', 'bytes=5-1', '416|200'),
    ('suffix zero', 'bytes=-0', '416'),
    ('not numeric', 'bytes=abc', '416|200|400'),
    ('empty', 'bytes=', '416|200|400'),
    ('unit other than bytes', 'items=0-1', '200|416'),
    ('beyond the end', 'bytes=100000-', '416'),
    ('far beyond the end', 'bytes=99999999999-99999999999', '416'),
    ('overflow', 'bytes=0-99999999999999999999999', '416|200|206|400'),
    ('2^63', 'bytes=9223372036854775807-9223372036854775808', '416|400|200'),
    ('negative start', 'bytes=-5-10', '416|200|400'),
    ('1000 ranges', 'bytes=' + ','.join('%d-%d' % (i * 10, i * 10 + 1) for i in range(1000)), '416|206|200|400|431'),
    ('10 overlapping ranges', 'bytes=' + ','.join(['0-99999'] * 10), '416|206|200'),
    ('many tiny ranges', 'bytes=' + ','.join('%d-%d' % (i, i) for i in range(0, 400, 2)), '416|206|200'),
    ('whitespace', 'bytes = 0 - 1', '206|200|416|400'),
    ('valid first byte', 'bytes=0-0', '206'),
    ('valid suffix', 'bytes=-10', '206'),
    ('valid two ranges', 'bytes=0-1,5-9', '206'),
    ('mixed valid invalid', 'bytes=0-1,abc', '416|200|206|400'),
    ('trailing comma', 'bytes=0-1,', '206|416|200|400'),
    ('range on HEAD style', 'bytes=0-0, -1', '206'),
]:
    add('door', '302|431' if len(rng) > 8000 else '302', 'range ' + name, req('GET /f.bin HTTP/1.1', 'Range: %s\r\n' % rng))
    add('pool', pool_exp, 'range ' + name, req('GET /f.bin?{ticket} HTTP/1.1', 'Range: %s\r\n' % rng))
add('pool', '416|200|400|206', 'range two Range headers', req('GET /f.bin?{ticket} HTTP/1.1', 'Range: bytes=0-1\r\nRange: bytes=2-3\r\n'))

# ---- WebDAV XML and methods (door)
def dav(method, path, headers, body, exp, name):
    b = body
    add('door', exp, 'dav ' + name, '%s %s HTTP/1.1\r\n%s%sContent-Type: application/xml\r\nContent-Length: %d\r\n\r\n%s' % (method, path, H, headers, expanded_len(b), b))

PF = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>'
dav('PROPFIND', '/', 'Depth: 0\r\n', PF, '207', 'PROPFIND allprop')
dav('PROPFIND', '/', 'Depth: 1\r\n', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&a;</D:displayname></D:prop></D:propfind>', '400', 'PROPFIND with DTD')
dav('PROPFIND', '/', 'Depth: 1\r\n', '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><D:propfind xmlns:D="DAV:"><D:prop>&lol4;</D:prop></D:propfind>', '400', 'PROPFIND billion laughs')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><D:x>&x;</D:x></D:prop></D:propfind>', '400', 'PROPFIND XXE file')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "http://127.0.0.1:1/x">]><D:propfind xmlns:D="DAV:"><D:prop><D:x>&x;</D:x></D:prop></D:propfind>', '400', 'PROPFIND XXE http')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:1/x.dtd"><D:propfind xmlns:D="DAV:"/>', '400', 'PROPFIND external DTD')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>', '400', 'PROPFIND truncated XML')
dav('PROPFIND', '/', 'Depth: 0\r\n', 'this is not xml', '400', 'PROPFIND not XML')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><propfind><allprop/></propfind>', '400|207', 'PROPFIND without DAV namespace')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>' + rep(20000, '<D:x/>') + '</D:prop></D:propfind>', '207|400|413', 'PROPFIND 20000 properties')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?>' + rep(5000, '<a>') + rep(5000, '</a>'), '400|413', 'PROPFIND deep nesting')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>' + rep(3000000, ' '), '400|413|207|close', 'PROPFIND 3 MB body')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0" encoding="UTF-7"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>', '400|207|415', 'PROPFIND UTF-7')
dav('PROPFIND', '/', 'Depth: 0\r\n', '\xef\xbb\xbf<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>', '207|400', 'PROPFIND BOM')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><?xml-stylesheet href="http://127.0.0.1:1/x"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>', '207|400', 'PROPFIND processing instruction')
dav('PROPFIND', '/', 'Depth: 0\r\n', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd"/></D:propfind>', '207|400', 'PROPFIND XInclude')
for depth, exp in [('7', '400'), ('-1', '400'), ('foo', '400'), ('', '400'), ('0, 1', '400'), ('infinity', '207|403'), ('Infinity', '207|400|403'), ('1 ', '207|400'), (' 0', '207|400'), ('00', '400'), ('1' * 30, '400')]:
    add('door', exp, 'dav PROPFIND Depth %r' % depth, req('PROPFIND / HTTP/1.1', 'Depth: %s\r\nContent-Length: 0\r\n' % depth))
add('door', '400', 'dav PROPFIND two Depth headers', req('PROPFIND / HTTP/1.1', 'Depth: 0\r\nDepth: 1\r\nContent-Length: 0\r\n'))
add('door', '404', 'dav PROPFIND missing', req('PROPFIND /no-such HTTP/1.1', 'Depth: 0\r\nContent-Length: 0\r\n'))
dav('PROPPATCH', '/f.bin', '', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:a xmlns:Z="urn:z">&a;</Z:a></D:prop></D:set></D:propertyupdate>', '400', 'PROPPATCH with DTD')
dav('PROPPATCH', '/f.bin', '', '<not closed', '400', 'PROPPATCH malformed')
dav('PROPPATCH', '/f.bin', '', '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:a xmlns:Z="urn:z">' + rep(2000000, 'v') + '</Z:a></D:prop></D:set></D:propertyupdate>', '400|413|507|close', 'PROPPATCH 2 MB value')
dav('PROPPATCH', '/f.bin', '', '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>' + ''.join('<Z:p%d xmlns:Z="urn:z">v</Z:p%d>' % (i, i) for i in range(3000)) + '</D:prop></D:set></D:propertyupdate>', '207|400|413|507|403', 'PROPPATCH 3000 properties')
dav('PROPPATCH', '/f.bin', '', '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getcontentlength>1</D:getcontentlength></D:prop></D:set></D:propertyupdate>', '207|403|409|400', 'PROPPATCH live property')
dav('PROPPATCH', '/no-such', '', '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:a xmlns:Z="urn:z">v</Z:a></D:prop></D:set></D:propertyupdate>', '404', 'PROPPATCH missing')
LOCKB = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>x</D:owner></D:lockinfo>'
dav('LOCK', '/dir/a.txt', 'Timeout: Second-10\r\n', LOCKB.replace('<D:lockinfo', '<!DOCTYPE d [<!ENTITY e "x">]><D:lockinfo'), '400', 'LOCK with DTD')
dav('LOCK', '/dir/a.txt', 'Timeout: Second-10\r\n', '<D:lockinfo xmlns:D="DAV:"><D:lockscope>', '400', 'LOCK malformed')
dav('LOCK', '/dir/a.txt', 'Timeout: Second-10\r\n', '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:bogus/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>', '400|422', 'LOCK bogus scope')
dav('LOCK', '/dir/a.txt', 'Timeout: Second-10\r\n', LOCKB.replace('<D:owner>x</D:owner>', '<D:owner>' + rep(200000, 'o') + '</D:owner>'), '400|413|close', 'LOCK 200 kB owner')
dav('LOCK', '/dir/a.txt', 'Timeout: Infinite, Second-99999999999999999999\r\nDepth: 7\r\n', LOCKB, '400', 'LOCK Depth 7')
dav('LOCK', '/dir/a.txt', 'If: (<opaquelocktoken:nope>)\r\n', '', '400|412', 'LOCK refresh unknown token')
add('door', '400|409|412', 'dav UNLOCK without token', req('UNLOCK /dir/a.txt HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '400|409|412|403', 'dav UNLOCK garbage token', req('UNLOCK /dir/a.txt HTTP/1.1', 'Lock-Token: garbage\r\nContent-Length: 0\r\n'))
add('door', '409|412|403|400', 'dav UNLOCK unknown token', req('UNLOCK /dir/a.txt HTTP/1.1', 'Lock-Token: <opaquelocktoken:00000000-0000-0000-0000-000000000000>\r\nContent-Length: 0\r\n'))
for name, ifh in [('unterminated', '(<opaquelocktoken:x>'), ('garbage', '!!!'), ('empty list', '()'), ('deep Not', 'Not ' * 200 + '(<x>)'),
                  ('10 kB', '(' + '<urn:x> ' * 1200 + ')'), ('tagged bad URL', '<http://[::1> (<x>)')]:
    add('door', '400|412|431', 'dav PUT If ' + name, req('PUT /dir/if-%s.txt HTTP/1.1' % name.replace(' ', '-'), 'If: %s\r\nContent-Length: 1\r\n' % ifh, 'x'))
for name, hdrs, exp in [
    ('COPY without Destination', '', '400'),
    ('COPY Destination garbage', 'Destination: ::::\r\n', '400'),
    ('COPY Destination other host', 'Destination: http://evil.example:1/x\r\n', '401'),  # a third-party copy needs an authenticated client
    ('COPY Destination dot dot', 'Destination: /../../etc/x\r\n', '400'),
    ('COPY Destination encoded dot dot', 'Destination: /%2e%2e/%2e%2e/etc/x\r\n', '400'),
    ('COPY Destination NUL', 'Destination: /x%00y\r\n', '400'),
    ('COPY Destination service', 'Destination: /.gridcache/health\r\n', '400|403|405|409'),
    ('COPY Overwrite bogus', 'Destination: /copy-overwrite.bin\r\nOverwrite: maybe\r\n', '400'),
    ('COPY Depth 7', 'Destination: /copy-depth.bin\r\nDepth: 7\r\n', '400'),
    ('MOVE without Destination', '', '400'),
    ('MOVE Destination dot dot', 'Destination: /../x\r\n', '400'),
    ('MOVE onto itself', 'Destination: /f.bin\r\n', '403|409|412|400'),
    ('MOVE into its own subtree', 'Destination: /dir/sub/\r\n', '403|409|400|502'),
]:
    method = name.split()[0]
    src = '/dir/' if 'subtree' in name else '/f.bin'
    add('door', exp, 'dav ' + name, req('%s %s HTTP/1.1' % (method, src), hdrs + 'Content-Length: 0\r\n'))
add('door', '400|415', 'dav MKCOL with body', req('MKCOL /mkcol-body/ HTTP/1.1', 'Content-Type: application/xml\r\nContent-Length: 7\r\n', '<x></x>'))
add('door', '400|403|405|409', 'dav MKCOL dot dot', req('MKCOL /../mk/ HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '400|403|405|409', 'dav MKCOL on service', req('MKCOL /.gridcache/x/ HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '405|403|409', 'dav DELETE on service', req('DELETE /.gridcache/health HTTP/1.1'))
add('door', '400|404', 'dav DELETE Depth 1', req('DELETE /no-such-dir/ HTTP/1.1', 'Depth: 1\r\n'))
add('door', '400|403|405', 'dav PUT on service', req('PUT /.gridcache/health HTTP/1.1', 'Content-Length: 1\r\n', 'x'))
add('door', '400', 'dav PUT dot dot', req('PUT /../escape.txt HTTP/1.1', 'Content-Length: 1\r\n', 'x'))
add('door', '400|411|201', 'dav PUT neither length nor chunked', req('PUT /dir/nolength.txt HTTP/1.1', 'Connection: close\r\n'))
add('door', '400|413|507|307', 'dav PUT Content-Length 2^62', req('PUT /dir/huge.txt HTTP/1.1', 'Content-Length: 4611686018427387904\r\nExpect: 100-continue\r\n'))
add('door', '400', 'dav PUT Content-Range', req('PUT /dir/range.txt HTTP/1.1', 'Content-Range: bytes 0-0/1\r\nContent-Length: 1\r\n', 'x'))
add('door', '400|412', 'dav PUT Content-MD5 wrong', req('PUT /dir/md5.txt HTTP/1.1', 'Content-MD5: AAAAAAAAAAAAAAAAAAAAAA==\r\nContent-Length: 1\r\n', 'x'))
add('door', '400|412', 'dav PUT Content-MD5 garbage', req('PUT /dir/md5g.txt HTTP/1.1', 'Content-MD5: !!!\r\nContent-Length: 1\r\n', 'x'))
add('door', '400|409', 'dav PUT Digest garbage', req('PUT /dir/dg.txt HTTP/1.1', 'Digest: adler32=zzzz\r\nContent-Length: 1\r\n', 'x'))
add('door', '400|405|501', 'dav REPORT', req('REPORT / HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '400|501|405', 'dav SEARCH', req('SEARCH / HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '400|405|501', 'dav VERSION-CONTROL', req('VERSION-CONTROL /f.bin HTTP/1.1', 'Content-Length: 0\r\n'))
add('door', '400|405|501', 'dav ACL with DTD', '%s' % ('ACL /f.bin HTTP/1.1\r\n' + H + 'Content-Length: 30\r\n\r\n<!DOCTYPE a [<!ENTITY b "c">]>'))
add('door', '200|400|404', 'dav OPTIONS asterisk', req('OPTIONS * HTTP/1.1'))
add('door', '200', 'dav OPTIONS', req('OPTIONS / HTTP/1.1'))
add('door', '400|405|501', 'POST anywhere', req('POST /f.bin HTTP/1.1', 'Content-Length: 3\r\n', 'abc'))
add('door', '400|405|501|403', 'PATCH', req('PATCH /f.bin HTTP/1.1', 'Content-Length: 3\r\n', 'abc'))

# ---- the door's services: delegation SOAP, credential, macaroon, TPC COPY
SOAP = '<?xml version="1.0"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.gridsite.org/namespaces/delegation-2"><SOAP-ENV:Body>%s</SOAP-ENV:Body></SOAP-ENV:Envelope>'
def soap(name, body, exp='400|401|403|404|405|415'):
    add('door', exp, 'delegation ' + name, 'POST /.gridcache/delegation HTTP/1.1\r\n%sContent-Type: text/xml\r\nSOAPAction: ""\r\nContent-Length: %d\r\n\r\n%s' % (H, expanded_len(body), body))
soap('getProxyReq anonymous', SOAP % '<ns:getProxyReq/>')
soap('getVersion', SOAP % '<ns:getVersion/>', '200|400|401|403|404|405|415')
soap('with DTD', '<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + (SOAP % '<ns:getProxyReq>&x;</ns:getProxyReq>').split('?>', 1)[1])
soap('billion laughs', '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>' + (SOAP % '<ns:getProxyReq>&c;</ns:getProxyReq>').split('?>', 1)[1])
soap('not XML', 'hello')
soap('truncated', (SOAP % '<ns:putProxy><delegationID>x</delegationID><proxy>')[:200])
soap('unknown operation', SOAP % '<ns:rmRf/>')
soap('putProxy forged', SOAP % '<ns:putProxy><delegationID>../../etc</delegationID><proxy>-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----</proxy></ns:putProxy>')
soap('destroy traversal', SOAP % '<ns:destroy><delegationID>../../../etc/passwd</delegationID></ns:destroy>')
soap('renewProxyReq 100 kB id', SOAP % ('<ns:renewProxyReq><delegationID>' + rep(100000, 'i') + '</delegationID></ns:renewProxyReq>'), '400|401|403|404|405|413|415|close')
soap('2 MB body', SOAP % ('<ns:getProxyReq>' + rep(2000000, ' ') + '</ns:getProxyReq>'), '400|401|403|404|405|413|415|close')
add('door', '400|401|403|404|405|411', 'delegation POST without length', 'POST /.gridcache/delegation HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')
add('door', '400|401|403|404|405', 'delegation PUT', req('PUT /.gridcache/delegation HTTP/1.1', 'Content-Length: 1\r\n', 'x'))
for name, path in [('credential forged subject', '/.gridcache/credential?subject=%2FCN%3Droot'),
                   ('credential ticket garbage', '/.gridcache/credential?gridcache-ticket=abc.def.ghi'),
                   ('credential ticket alg none', '/.gridcache/credential?gridcache-ticket=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'),
                   ('credential ticket 50 kB', '/.gridcache/credential?gridcache-ticket=' + rep(50000, 'A')),
                   ('credential ticket for a file', '/.gridcache/credential?{ticket}')]:
    add('door', '400|401|403|404|414', name, req('GET %s HTTP/1.1' % path))
MAC = '{"caveats": ["activity:DOWNLOAD"], "validity": "PT1H"}'
for name, ctype, body, exp in [
    ('macaroon anonymous', 'application/macaroon-request', MAC, '400|401|403'),
    ('macaroon bad JSON', 'application/macaroon-request', '{"caveats": [', '400|401|403'),
    ('macaroon JSON 1 MB', 'application/macaroon-request', '{"caveats": ["' + rep(1000000, 'c') + '"]}', '400|401|403|413|close'),
    ('macaroon deep JSON', 'application/macaroon-request', rep(10000, '[') + rep(10000, ']'), '400|401|403|413'),
    ('macaroon validity huge', 'application/macaroon-request', '{"validity": "PT99999999999999H"}', '400|401|403'),
    ('macaroon caveat path traversal', 'application/macaroon-request', '{"caveats": ["path:/../../"]}', '400|401|403'),
    ('macaroon wrong content type', 'text/plain', MAC, '400|401|403|405|415|501'),
]:
    add('door', exp, name, 'POST /f.bin HTTP/1.1\r\n%sContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s' % (H, ctype, expanded_len(body), body))
for name, hdr, path, exp in [
    ('macaroon bearer forged', 'Authorization: Bearer MDAxY2xvY2F0aW9uIGV4YW1wbGUKMDAxZWlkZW50aWZpZXIgeAowMDJmc2lnbmF0dXJlIAo\r\n', '/f.bin', '302|400|401|403'),
    ('macaroon in authz query', '', '/f.bin?authz=MDAxY2xvY2F0aW9u', '302|400|401|403'),
    ('authz query garbage', '', '/f.bin?authz=%00%ff', '302|400|401|403'),
    ('ticket query on the door', '', '/f.bin?{ticket}', '302|400|403'),
]:
    add('door', exp, name, req('GET %s HTTP/1.1' % path, hdr))
for name, hdrs, exp in [
    ('TPC pull file URI', 'Source: file:///etc/passwd\r\n', '400|401|403|405|501'),
    ('TPC pull gopher', 'Source: gopher://127.0.0.1:70/x\r\n', '400|401|403|405|501'),
    ('TPC pull SSH port', 'Source: http://127.0.0.1:22/x\r\n', '400|401|403|405|501|502|307'),
    ('TPC pull garbage URL', 'Source: ht!tp:://[\r\n', '400|401|403|405|501'),
    ('TPC pull metadata host', 'Source: http://169.254.169.254/latest/meta-data/\r\n', '400|401|403|405|501|502|307'),
    ('TPC push file URI', 'Destination: file:///tmp/x\r\n', '400|401|403|405|501|502'),
    ('TPC push CRLF in header', 'Destination: http://127.0.0.1:1/x\r\nTransferHeaderX: a\x0bb\r\n', '400|401|403|405|501|502'),
    ('TPC both Source and Destination', 'Source: http://127.0.0.1:1/a\r\nDestination: http://127.0.0.1:1/b\r\n', '400|401|403|405|501'),
    ('TPC Credential bogus', 'Source: http://127.0.0.1:1/a\r\nCredential: gridsite;evil\r\n', '400|401|403|405|501|502'),
    ('TPC TransferHeader Authorization injection', 'Source: http://127.0.0.1:1/a\r\nTransferHeaderAuthorization: Bearer x\r\nTransferHeaderHost: evil\r\n', '400|401|403|405|501|502|307'),
    ('TPC RequireChecksumVerification junk', 'Source: http://127.0.0.1:1/a\r\nRequireChecksumVerification: perhaps\r\n', '400|401|403|405|501|502|307'),
]:
    add('door', exp, name, req('COPY /dir/tpc-target.bin HTTP/1.1', hdrs + 'Content-Length: 0\r\n'))

# ---- the pool: tickets and methods
for name, q, exp in [
    ('no ticket', '', '403'),
    ('empty ticket', '?gridcache-ticket=', '403|400'),
    ('garbage ticket', '?gridcache-ticket=abc', '403|400'),
    ('three garbage parts', '?gridcache-ticket=a.b.c', '403|400'),
    ('alg none', '?gridcache-ticket=eyJhbGciOiJub25lIn0.eyJwYXRoIjoiL2YuYmluIiwib3AiOiJyZWFkIn0.', '403|400'),
    ('alg HS256', '?gridcache-ticket=eyJhbGciOiJIUzI1NiJ9.eyJwYXRoIjoiL2YuYmluIn0.c2lnbmF0dXJl', '403|400'),
    ('ticket 100 kB', '?gridcache-ticket=' + rep(100000, 'A'), '400|403|414|431|close'),
    ('ticket 30 kB', '?gridcache-ticket=' + rep(30000, 'A'), '400|403|414|431'),
    ('two tickets', '?{ticket}&gridcache-ticket=abc', '403|400|200'),
    ('tampered signature', '?{ticket}x', '403|400'),
    ('ticket for another path', '?{ticket}', '403'),
    ('ticket JSON junk', '?gridcache-ticket=eyJhbGciOiJFZERTQSJ9.' + 'eyJwYXRoIjpbXX0' + '.AAAA', '403|400'),
    ('ticket bad base64', '?gridcache-ticket=!!!.###.$$$', '403|400'),
    ('ticket percent junk', '?gridcache-ticket=%zz%00', '403|400'),
    ('ticket NUL', '?gridcache-ticket=%00', '403|400'),
]:
    path = '/other.bin' if name == 'ticket for another path' else '/f.bin'
    add('pool', exp, 'ticket ' + name, req('GET %s%s HTTP/1.1' % (path, q)))
for method, exp in [('PUT', '400|403|405|411'), ('DELETE', '403|405'), ('POST', '403|405'), ('PROPFIND', '403|405'), ('COPY', '400|403|405'),
                    ('MOVE', '403|405'), ('MKCOL', '403|405'), ('LOCK', '403|405'), ('OPTIONS', '200|403|405'), ('PATCH', '403|405|501'),
                    ('TRACE', '405|501'), ('CONNECT', '400|405|501')]:
    add('pool', exp, 'method %s without ticket' % method, req('%s /f.bin HTTP/1.1' % method, 'Content-Length: 0\r\n'))
add('pool', '400|403|405', 'method PUT with read ticket', req('PUT /f.bin?{ticket} HTTP/1.1', 'Content-Length: 1\r\n', 'x'))
add('pool', '400|403|405', 'method COPY with read ticket', req('COPY /f.bin?{ticket} HTTP/1.1', 'Source: http://127.0.0.1:1/x\r\nContent-Length: 0\r\n'))
add('pool', '400|403|405|411|413', 'method PUT 2^62 without ticket', req('PUT /f.bin HTTP/1.1', 'Content-Length: 4611686018427387904\r\nExpect: 100-continue\r\n'))
# fewer than the 16 a pool lets wait behind a transfer (PipeliningGate): the 17th would be 503, rightly
add('pool', '206 many', 'pipelined 12 ranged requests', ''.join(req('GET /f.bin?{ticket} HTTP/1.1', 'Range: bytes=0-0\r\n') for _ in range(12)))
add('door', '302 many', 'pipelined 12 requests', ''.join(req('GET /f.bin HTTP/1.1') for _ in range(12)))

seen = set()
for c in cases:
    key = (c[0], c[2])
    assert key not in seen, key
    seen.add(key)
with open(sys.argv[1], 'w') as f:
    f.write('# The hostile-request corpus (issue 15, R6), replayed by HostileRequestsTest over raw sockets.\n')
    f.write('# One case a line, tab-separated: target (door|pool), expected statuses (| between; "close": the connection\n')
    f.write('# closed with no response; "once": at most one response on the connection, so a hidden second request was\n')
    f.write('# not executed; "many": every response of a pipeline is judged), name, the raw request: \\r \\n \\t \\\\ \\xHH\n')
    f.write('# escapes, {N*text} repeats text N times, {ticket} is gridcache-ticket=<a valid ticket for /f.bin>.\n')
    f.write('# Whatever the expectation, every response must be well formed, never 5xx but 501, never carry a stack trace.\n')
    for t, e, name, raw in cases:
        f.write('%s\t%s\t%s\t%s\n' % (t, e, name, esc(raw)))
print(len(cases), 'cases;', sum(1 for c in cases if c[0] == 'door'), 'door')
