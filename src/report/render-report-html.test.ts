import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { renderReportHtml } from './render-report-html.ts';
import type { ReportData } from './report-data.ts';
import { HOSTILE_TITLE, sampleReport } from './test-support/sample-report-data.ts';

function between(html: string, open: string, close: string): string[] {
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const start = html.indexOf(open, at);
    if (start < 0) return found;
    const end = html.indexOf(close, start + open.length);
    found.push(html.slice(start + open.length, end));
    at = end + close.length;
  }
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

test('the data sits in one JSON block that no hostile string can leave, and reads back whole', () => {
  const data = sampleReport();
  const hostile: ReportData = {
    ...data,
    generator: 'waymark "<b>"',
    pages: [
      ...data.pages,
      [
        'https://example.com/</SCRIPT><script>alert(1)</script>',
        200,
        'listed',
        null,
        '<!--',
        1,
        0,
        1,
        0,
        null,
        null,
        null,
        1,
        `${HOSTILE_TITLE}\u2028\u2029`,
        0,
        null,
        null,
      ],
    ],
  };
  const html = renderReportHtml(hostile);
  const [json, ...more] = between(
    html,
    '<script type="application/json" id="report-data">',
    '</script>',
  );
  assert.equal(more.length, 0);
  assert.ok(json !== undefined);
  assert.doesNotMatch(json, /[<\u2028\u2029]/);
  assert.deepEqual(JSON.parse(json), hostile);
  // Only the two script elements of the shell: the JSON block and the page script.
  assert.equal(html.match(/<script/gi)?.length, 2);
  assert.match(html, /<meta name="generator" content="waymark &quot;&lt;b&gt;&quot;">/);
});

test('the Content-Security-Policy forbids every fetch and allows the inline script and style by hash', () => {
  const html = renderReportHtml(sampleReport());
  const [policy] = between(html, '<meta http-equiv="Content-Security-Policy" content="', '">');
  const [style] = between(html, '<style>', '</style>');
  const scripts = between(html, '<script>', '</script>');
  assert.equal(scripts.length, 1);
  assert.ok(policy !== undefined && style !== undefined && scripts[0] !== undefined);
  const directives = policy.replaceAll('&#39;', "'").split('; ');
  assert.deepEqual(directives, [
    "default-src 'none'",
    `script-src ${hash(scripts[0])}`,
    `style-src ${hash(style)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ]);
  assert.doesNotMatch(policy, /unsafe/);
  // The policy comes before anything it governs.
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<style>'));
});

test('the shell: language, charset, viewport, a title naming the site, a noscript line, nothing to load', () => {
  const html = renderReportHtml(sampleReport());
  assert.match(html, /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /<title>Crawl report: example.com<\/title>/);
  assert.match(html, /<noscript>.*needs JavaScript.*<\/noscript>/);
  const shell = html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style>[\s\S]*?<\/style>/, '');
  assert.doesNotMatch(shell, /\b(src|href)=|<link|@import|url\(/i);
  const hostile = { ...sampleReport(), crawl: { ...sampleReport().crawl, start: '<i>not a url' } };
  assert.match(renderReportHtml(hostile), /<title>Crawl report: &lt;i&gt;not a url<\/title>/);
});
