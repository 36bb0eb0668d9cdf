// submitIndexNow against a real IndexNow endpoint on 127.0.0.1 (test-support/indexnow-endpoint.ts)
// that records every request and answers a scripted sequence of statuses. Waits between
// retries go through an injected sleep that records what was asked and returns at once, so
// no test sleeps for real or asserts on time. Every fetch goes through `localFetch`, which
// refuses anything but 127.0.0.1: no request leaves the machine.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { FetchFunction } from '../http/index.ts';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { abortableSleep } from '../shared/abortable-sleep.ts';
import { isWaymarkError } from '../shared/waymark-error.ts';
import {
  INDEXNOW_DEFAULT_ENDPOINT,
  type IndexNowSubmission,
  indexNowStatusMeaning,
  isValidIndexNowKey,
  submitIndexNow,
} from './index.ts';
import { type IndexNowEndpoint, startIndexNowEndpoint } from './test-support/indexnow-endpoint.ts';

const KEY = '73134416ae45434d98edc086e0bf6740';
const HOST = 'www.example.com';
const page = (path: string) => `https://${HOST}${path}`;

/** globalThis.fetch, for 127.0.0.1 only. */
const localFetch: FetchFunction = (url, init) => {
  assert.equal(new URL(url).hostname, '127.0.0.1', `a test tried to reach ${url}`);
  return fetch(url, init);
};

let endpoint: IndexNowEndpoint;
let waits: number[];
before(async () => {
  endpoint = await startIndexNowEndpoint();
});
after(() => endpoint.close());
beforeEach(() => {
  endpoint.requests.length = 0;
  endpoint.script([]);
  waits = [];
});

/** A submission to the test endpoint whose waits are recorded, not slept. */
function submission(extra: Partial<IndexNowSubmission> = {}): IndexNowSubmission {
  return {
    host: HOST,
    key: KEY,
    urls: [page('/a')],
    endpoint: endpoint.url,
    fetch: localFetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  };
}

describe('isValidIndexNowKey', () => {
  const cases: [string, boolean][] = [
    ['abcd1234', true],
    ['abcd123', false],
    ['A-b-C-1-2-3', true],
    ['x'.repeat(128), true],
    ['x'.repeat(129), false],
    ['abcd_1234', false],
    ['abcd 1234', false],
    ['abcd1234\n', false],
    ['abcdé1234', false],
    ['', false],
  ];
  for (const [key, valid] of cases) {
    test(`${JSON.stringify(key.length > 20 ? `${key.slice(0, 8)}… (${key.length})` : key)} is ${valid ? 'valid' : 'not valid'}`, () => {
      assert.equal(isValidIndexNowKey(key), valid);
    });
  }
});

describe('submitIndexNow: the request', () => {
  test('POSTs host, key, keyLocation and urlList as JSON in UTF-8', async () => {
    const report = await submitIndexNow(
      submission({
        urls: [page('/a'), page('/caf%C3%A9')],
        keyLocation: `https://${HOST}/${KEY}.txt`,
      }),
    );
    assert.equal(endpoint.requests.length, 1);
    const [request] = endpoint.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, '/indexnow');
    assert.equal(request?.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(request?.body, {
      host: HOST,
      key: KEY,
      keyLocation: `https://${HOST}/${KEY}.txt`,
      urlList: [page('/a'), page('/caf%C3%A9')],
    });
    assert.equal(report.ok, true);
    assert.equal(report.submitted, 2);
  });

  test("a caller's Content-Type header is replaced, other headers are sent", async () => {
    await submitIndexNow(
      submission({ headers: { 'Content-Type': 'text/plain', 'user-agent': 'MyBot/1.0' } }),
    );
    assert.equal(endpoint.requests[0]?.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(endpoint.requests[0]?.headers['user-agent'], 'MyBot/1.0');
  });

  test('leaves keyLocation out when none is given', async () => {
    await submitIndexNow(submission());
    assert.deepEqual(endpoint.requests[0]?.body, { host: HOST, key: KEY, urlList: [page('/a')] });
  });

  test('the default endpoint is the shared IndexNow API', async () => {
    assert.equal(INDEXNOW_DEFAULT_ENDPOINT, 'https://api.indexnow.org/indexnow');
    const called: string[] = [];
    // A fetch that answers in-process: the shared API is never contacted.
    const inProcess: FetchFunction = async (url) => {
      called.push(url);
      return new Response(null, { status: 202 });
    };
    const { endpoint: _, ...rest } = submission({ fetch: inProcess });
    const report = await submitIndexNow(rest);
    assert.deepEqual(called, [INDEXNOW_DEFAULT_ENDPOINT]);
    assert.equal(report.batches[0]?.status, 202);
  });

  test('25,001 URLs go in 3 requests of 10,000, 10,000 and 5,001', async () => {
    const urls = Array.from({ length: 25_001 }, (_, i) => page(`/p/${i}`));
    const report = await submitIndexNow(submission({ urls }));
    assert.deepEqual(
      endpoint.requests.map((r) => r.urlList.length),
      [10_000, 10_000, 5_001],
    );
    assert.deepEqual(
      report.batches.map((b) => [b.batch, b.urls]),
      [
        [1, 10_000],
        [2, 10_000],
        [3, 5_001],
      ],
    );
    assert.equal(endpoint.requests[2]?.urlList[5_000], page('/p/25000'));
    assert.equal(report.submitted, 25_001);
  });

  test('onBatch hears of each batch as it ends, in order', async () => {
    const heard: number[] = [];
    const urls = Array.from({ length: 10_001 }, (_, i) => page(`/p/${i}`));
    await submitIndexNow(submission({ urls, onBatch: (b) => heard.push(b.batch) }));
    assert.deepEqual(heard, [1, 2]);
  });
});

describe('submitIndexNow: which URLs are sent', () => {
  test('URLs of another host, not http(s), with credentials or not URLs are refused and never sent', async () => {
    const report = await submitIndexNow(
      submission({
        urls: [
          page('/a'),
          'https://example.com/a',
          'https://evil.example/a',
          'ftp://www.example.com/a',
          'not a url',
          `http://${HOST}/plain-http`,
          `https://user:secret@${HOST}/private`,
        ],
      }),
    );
    assert.deepEqual(endpoint.requests[0]?.urlList, [page('/a'), `http://${HOST}/plain-http`]);
    assert.deepEqual(report.refused, [
      { url: 'https://example.com/a', reason: 'not on the host www.example.com' },
      { url: 'https://evil.example/a', reason: 'not on the host www.example.com' },
      { url: 'ftp://www.example.com/a', reason: 'not an http(s) URL' },
      { url: 'not a url', reason: 'not a URL' },
      { url: `https://user:secret@${HOST}/private`, reason: 'carries a user name or password' },
    ]);
    assert.equal(report.ok, false, 'a refused URL makes the report not ok');
  });

  test('only refused URLs: no request at all', async () => {
    const report = await submitIndexNow(submission({ urls: ['https://evil.example/'] }));
    assert.equal(endpoint.requests.length, 0);
    assert.deepEqual(report.batches, []);
  });

  test('duplicates are sent once; a fragment is not part of the URL', async () => {
    const report = await submitIndexNow(
      submission({ urls: [page('/a'), page('/a#top'), page('/b'), page('/a')] }),
    );
    assert.deepEqual(endpoint.requests[0]?.urlList, [page('/a'), page('/b')]);
    assert.equal(report.duplicates, 2);
  });

  test('a key file in a folder vouches only for URLs under that folder', async () => {
    const report = await submitIndexNow(
      submission({
        keyLocation: `https://${HOST}/catalog/${KEY}.txt`,
        urls: [page('/catalog/shoes'), page('/help/faq'), page('/catalogue')],
      }),
    );
    assert.deepEqual(endpoint.requests[0]?.urlList, [page('/catalog/shoes')]);
    assert.deepEqual(
      report.refused.map((r) => r.url),
      [page('/help/faq'), page('/catalogue')],
    );
  });

  test('a host with a port admits only URLs on that port', async () => {
    const report = await submitIndexNow(
      submission({
        host: '127.0.0.1:8080',
        urls: ['http://127.0.0.1:8080/a', 'http://127.0.0.1/b', 'http://127.0.0.1:9090/c'],
      }),
    );
    assert.deepEqual(endpoint.requests[0]?.body, {
      host: '127.0.0.1:8080',
      key: KEY,
      urlList: ['http://127.0.0.1:8080/a'],
    });
    assert.equal(report.refused.length, 2);
  });

  test('the host is compared case-insensitively and sent in lower case', async () => {
    await submitIndexNow(
      submission({ host: 'WWW.Example.COM', urls: ['https://www.EXAMPLE.com/A'] }),
    );
    assert.deepEqual(endpoint.requests[0]?.body, {
      host: HOST,
      key: KEY,
      urlList: [page('/A')],
    });
  });
});

describe('submitIndexNow: mistakes are refused before any request', () => {
  const cases: [string, Partial<IndexNowSubmission>, RegExp][] = [
    ['a key of 7 characters', { key: 'abc1234' }, /key must be 8 to 128/],
    ['a key with an underscore', { key: 'abcd_12345' }, /key must be 8 to 128/],
    ['a host with a scheme', { host: 'https://www.example.com' }, /host must be a host name/],
    ['a host with a path', { host: 'www.example.com/blog' }, /host must be a host name/],
    ['an empty host', { host: '' }, /host must be a host name/],
    [
      'a key location on another host',
      { keyLocation: `https://cdn.example.net/${KEY}.txt` },
      /keyLocation must be on the host/,
    ],
    [
      'a key location that is not http(s)',
      { keyLocation: 'file:///key.txt' },
      /keyLocation must be an http/,
    ],
    [
      'an endpoint that is not http(s)',
      { endpoint: 'ftp://127.0.0.1/indexnow' },
      /endpoint must be an http/,
    ],
    ['a negative maxRetries', { maxRetries: -1 }, /maxRetries must be a whole number/],
  ];
  for (const [name, extra, message] of cases) {
    test(name, async () => {
      await assert.rejects(submitIndexNow(submission(extra)), (error) => {
        assert.ok(isWaymarkError(error));
        assert.equal(error.code, 'invalid-argument');
        assert.match(error.message, message);
        return true;
      });
      assert.equal(endpoint.requests.length, 0);
    });
  }
});

describe('submitIndexNow: each documented answer', () => {
  const cases: [number, 'accepted' | 'rejected', string][] = [
    [200, 'accepted', 'OK: URL submitted successfully'],
    [202, 'accepted', 'Accepted: URL received, IndexNow key validation pending'],
    [400, 'rejected', 'Bad request: invalid format'],
    [
      403,
      'rejected',
      'Forbidden: key not valid (key file not found, or the file does not hold the key)',
    ],
    [
      422,
      'rejected',
      'Unprocessable Entity: URLs do not belong to the host, or the key does not match the schema in the protocol',
    ],
  ];
  for (const [status, outcome, meaning] of cases) {
    test(`${status}: ${outcome}, never retried`, async () => {
      endpoint.script([{ status, body: `{"code":"C${status}"}` }]);
      const report = await submitIndexNow(submission({ maxRetries: 5 }));
      assert.equal(endpoint.requests.length, 1);
      assert.deepEqual(waits, []);
      const [batch] = report.batches;
      assert.equal(batch?.status, status);
      assert.equal(batch?.outcome, outcome);
      assert.equal(batch?.ok, outcome === 'accepted');
      assert.equal(batch?.meaning, meaning);
      assert.equal(batch?.meaning, indexNowStatusMeaning(status));
      assert.equal(batch?.attempts, 1);
      assert.equal(batch?.detail, `{"code":"C${status}"}`);
      assert.equal(report.ok, outcome === 'accepted');
    });
  }

  test('429 after the last retry: rejected with its meaning, each wait the back-off', async () => {
    endpoint.script([429, 429, 429]);
    const report = await submitIndexNow(submission({ maxRetries: 2 }));
    assert.equal(endpoint.requests.length, 3);
    assert.deepEqual(waits, [1_000, 2_000]);
    assert.equal(report.batches[0]?.status, 429);
    assert.equal(
      report.batches[0]?.meaning,
      'Too Many Requests: too many requests (potential spam)',
    );
    assert.equal(report.batches[0]?.outcome, 'rejected');
    assert.equal(report.batches[0]?.attempts, 3);
  });

  test('another status is reported as not an IndexNow answer', async () => {
    endpoint.script([404]);
    const report = await submitIndexNow(submission());
    assert.equal(report.batches[0]?.meaning, 'status 404: not an IndexNow answer');
    assert.equal(report.batches[0]?.outcome, 'rejected');
    assert.equal(endpoint.requests.length, 1);
  });
});

describe('submitIndexNow: retries', () => {
  test('429 with Retry-After in seconds: waits exactly that, then succeeds', async () => {
    endpoint.script([{ status: 429, retryAfter: '7' }, 200]);
    const report = await submitIndexNow(submission());
    assert.equal(endpoint.requests.length, 2);
    assert.deepEqual(waits, [7_000]);
    assert.equal(report.batches[0]?.status, 200);
    assert.equal(report.batches[0]?.attempts, 2);
    assert.equal(report.ok, true);
  });

  test('Retry-After: 0 on every answer waits the back-off all the same: no burst', async () => {
    endpoint.script([
      { status: 429, retryAfter: '0' },
      { status: 503, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
      200,
    ]);
    const report = await submitIndexNow(submission());
    assert.deepEqual(waits, [1_000, 2_000, 4_000]);
    assert.equal(report.ok, true);
  });

  test('429 with Retry-After as an HTTP-date: waits until then, read against the clock', async () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0);
    endpoint.script([{ status: 429, retryAfter: 'Tue, 24 Nov 2026 12:00:45 GMT' }, 202]);
    const report = await submitIndexNow(submission({ now: () => now }));
    assert.deepEqual(waits, [45_000]);
    assert.equal(report.batches[0]?.status, 202);
  });

  test('Retry-After longer than maxRetryDelayMs: not retried early, the batch ends throttled', async () => {
    endpoint.script([{ status: 429, retryAfter: '3600' }]);
    const report = await submitIndexNow(submission({ maxRetryDelayMs: 60_000 }));
    assert.equal(endpoint.requests.length, 1);
    assert.deepEqual(waits, []);
    assert.equal(report.batches[0]?.status, 429);
    assert.match(report.batches[0]?.error ?? '', /Retry-After asks for 3600 s/);
  });

  test('Retry-After up to maxRetryDelayMs is honoured in full', async () => {
    endpoint.script([{ status: 429, retryAfter: '3600' }, 200]);
    await submitIndexNow(submission({ maxRetryDelayMs: 3_600_000 }));
    assert.deepEqual(waits, [3_600_000]);
  });

  test('5xx is retried with a back-off that doubles and stops at maxRetryDelayMs', async () => {
    endpoint.script([500, 503, 502, 500, 200]);
    const report = await submitIndexNow(
      submission({ maxRetries: 4, retryDelayMs: 1_000, maxRetryDelayMs: 5_000 }),
    );
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 5_000]);
    assert.equal(report.batches[0]?.attempts, 5);
    assert.equal(report.batches[0]?.ok, true);
  });

  test('a 503 with Retry-After waits what it asks', async () => {
    endpoint.script([{ status: 503, retryAfter: '2' }, 200]);
    await submitIndexNow(submission());
    assert.deepEqual(waits, [2_000]);
  });

  test('a dropped connection is retried; with none left the batch failed, without a status', async () => {
    endpoint.script([{ status: 200, hangUp: true }, 200]);
    const retried = await submitIndexNow(submission());
    assert.equal(retried.batches[0]?.attempts, 2);
    assert.equal(retried.batches[0]?.ok, true);

    endpoint.requests.length = 0;
    waits = [];
    endpoint.script([
      { status: 200, hangUp: true },
      { status: 200, hangUp: true },
    ]);
    const failed = await submitIndexNow(submission({ maxRetries: 1 }));
    assert.equal(endpoint.requests.length, 2);
    const [batch] = failed.batches;
    assert.equal(batch?.status, null);
    assert.equal(batch?.outcome, 'failed');
    assert.equal(batch?.meaning, 'no answer from the endpoint');
    assert.match(batch?.error ?? '', /network error/);
  });

  test('maxRetries 0: one attempt only', async () => {
    endpoint.script([500]);
    const report = await submitIndexNow(submission({ maxRetries: 0 }));
    assert.equal(endpoint.requests.length, 1);
    assert.equal(report.batches[0]?.status, 500);
    assert.deepEqual(waits, []);
  });

  test('the default is 3 retries', async () => {
    endpoint.script([500, 500, 500, 500, 500]);
    const report = await submitIndexNow(submission());
    assert.equal(endpoint.requests.length, 4);
    assert.equal(report.batches[0]?.attempts, 4);
  });
});

describe('submitIndexNow: batches after an answer that holds for all', () => {
  const urls = Array.from({ length: 20_001 }, (_, i) => page(`/p/${i}`));
  const stops: [string, readonly (number | { status: number; hangUp: true })[]][] = [
    ['403 (the key is not valid)', [403]],
    ['429 after the last retry', [429]],
    ['5xx after the last retry', [500]],
    ['no answer', [{ status: 200, hangUp: true }]],
  ];
  for (const [name, script] of stops) {
    test(`${name}: the rest are not sent`, async () => {
      endpoint.script(script);
      const report = await submitIndexNow(submission({ urls, maxRetries: 0 }));
      assert.equal(endpoint.requests.length, 1);
      assert.deepEqual(
        report.batches.map((b) => [b.outcome, b.attempts]),
        [
          [report.batches[0]?.outcome, 1],
          ['not-sent', 0],
          ['not-sent', 0],
        ],
      );
      assert.match(report.batches[1]?.error ?? '', /^not sent: batch 1 ended/);
      assert.equal(report.submitted, 10_000);
    });
  }

  test('422 and 400 are about one batch: the next ones are still sent', async () => {
    endpoint.script([422, 400, 200]);
    const report = await submitIndexNow(submission({ urls }));
    assert.equal(endpoint.requests.length, 3);
    assert.deepEqual(
      report.batches.map((b) => b.status),
      [422, 400, 200],
    );
    assert.equal(report.ok, false);
  });
});

describe('submitIndexNow: limits and stopping', () => {
  let stalling: TestServer;
  before(async () => {
    stalling = await startTestServer({
      '/stall': () => {},
      '/huge': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('x'.repeat(200_000));
      },
    });
  });
  after(() => stalling.close());

  test('an endpoint that never answers fails at the time cap', async () => {
    const report = await submitIndexNow(
      submission({ endpoint: stalling.url('/stall'), timeoutMs: 200, maxRetries: 0 }),
    );
    assert.equal(report.batches[0]?.outcome, 'failed');
    assert.match(report.batches[0]?.error ?? '', /timed out/);
  });

  test('a body declared over maxResponseBytes is not read; the status stands', async () => {
    const report = await submitIndexNow(
      submission({ endpoint: stalling.url('/huge'), maxResponseBytes: 1_024 }),
    );
    assert.equal(report.batches[0]?.status, 200);
    assert.equal(report.batches[0]?.ok, true);
    assert.equal(report.batches[0]?.detail, undefined);
  });

  test('a long body is kept as an excerpt of 500 characters', async () => {
    const report = await submitIndexNow(submission({ endpoint: stalling.url('/huge') }));
    assert.equal(report.batches[0]?.detail?.length, 500);
  });

  test('aborting during a retry wait rejects with the reason; nothing more is sent', async () => {
    endpoint.script([{ status: 429, retryAfter: '30' }, 200]);
    const controller = new AbortController();
    const reason = new Error('stop now');
    let asleep = () => {};
    const sleeping = new Promise<void>((resolve) => {
      asleep = resolve;
    });
    const pending = submitIndexNow(
      submission({
        signal: controller.signal,
        // The real sleep, cut short by the abort: the test never waits 30 s.
        sleep: (ms, signal) => {
          waits.push(ms);
          asleep();
          return abortableSleep(ms, signal);
        },
        onBatch: () => assert.fail('no batch ends'),
      }),
    );
    await sleeping;
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
    assert.deepEqual(waits, [30_000]);
    assert.equal(endpoint.requests.length, 1);
  });

  test('a signal already aborted: rejects before any request', async () => {
    const controller = new AbortController();
    controller.abort(new Error('early'));
    await assert.rejects(submitIndexNow(submission({ signal: controller.signal })), /early/);
    assert.equal(endpoint.requests.length, 0);
  });
});
