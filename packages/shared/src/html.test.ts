import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.js';

describe('escapeHtml', () => {
  it('turns markup and quotes into entities, and leaves other text alone', () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;',
    );
    expect(escapeHtml('Oslo, Zürich 42')).toBe('Oslo, Zürich 42');
    expect(escapeHtml(42)).toBe('42');
  });
});
