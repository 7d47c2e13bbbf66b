/**
 * `externalLoads` (view-html.ts): exercise 07's check refuses a view that loads anything from
 * elsewhere, and accepts one that vite-plugin-singlefile built, whose inline code quotes URLs.
 * `connectsToHost`: it tells a view with no `App` yet apart, before a browser waits for it.
 */
import { describe, expect, it } from 'vitest';
import { connectsToHost, externalLoads } from './view-html.js';

const page = (head: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('externalLoads', () => {
  it('finds nothing in a page whose script and styles are inline, even when the code quotes URLs', () => {
    const html = page(
      '<style>td { color: #333; background: url(data:image/png;base64,AAAA); }</style>' +
        '<script type="module">fetch("https://example.com/x"); const css = "@import url(//cdn.example/a.css)";</script>',
      '<table><tbody id="cities"></tbody></table>',
    );
    expect(externalLoads(html)).toEqual([]);
  });

  it.each([
    ['a script from a CDN', page('<script src="https://cdn.example.com/app.js"></script>')],
    ['a protocol-relative script', page("<script type='module' src='//cdn.example.com/app.js'></script>")],
    ['a script vite did not inline', page('<script type="module" src="./cities-view.ts"></script>')],
    ['an external stylesheet', page('<link rel="stylesheet" href="https://cdn.example.com/a.css">')],
    ['a stylesheet without quotes', page('<link href=/a.css rel=stylesheet>')],
    ['a module preload', page('<link rel="modulepreload" href="./chunk.js">')],
    ['a CSS @import', page('<style>@import "https://cdn.example.com/a.css";</style>')],
    [
      'a CSS url() on another origin',
      page('<style>body { background: url("https://x.example/b.png") }</style>'),
    ],
    ['an icon from another origin', page('<link rel="icon" href="https://tracker.example/i.png">')],
    ['an image from another origin', page('', '<img src="https://tracker.example/p.gif">')],
    ['a frame from another origin', page('', '<iframe src="//evil.example/"></iframe>')],
  ])('refuses %s', (_label, html) => {
    expect(externalLoads(html)).not.toEqual([]);
  });

  it('says what it found, one line per kind', () => {
    const html = page('<link rel="stylesheet" href="./a.css"><script src="./a.js"></script>');
    expect(externalLoads(html)).toEqual([
      'a <script src=…>: inline the script (vite-plugin-singlefile does)',
      'a <link rel="stylesheet">: inline the styles',
    ]);
  });
});

describe('connectsToHost', () => {
  it('finds the handshake in the inline code of a view built with an App', () => {
    const code = 'class App { connect() { return this.request({ method: "ui/initialize" }); } }';
    expect(connectsToHost(page(`<script type="module">${code}</script>`))).toBe(true);
  });

  it.each([
    ['a page with no script', page('', '<table><tbody id="cities"></tbody></table>')],
    ['a script without an App', page('<script type="module">document.title = "x";</script>')],
    ['the name in the markup only', page('', '<p>ui/initialize</p>')],
    ['only the notification a host sends back', page('<script>"ui/notifications/initialized"</script>')],
  ])('finds none in %s', (_label, html) => {
    expect(connectsToHost(html)).toBe(false);
  });
});
