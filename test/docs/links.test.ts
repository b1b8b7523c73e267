// Every relative link and path the README and docs/ name works from a clone, and the contract copies match the shared specification.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

// Tests run from the repository's root (npm test).
const ROOT = process.cwd();

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk('docs');
  walk('bench');
  return out;
}

describe('links in the README and docs', () => {
  for (const file of markdownFiles()) {
    it(`${file}: every relative link resolves inside the clone`, () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      // The copies of the shared specification name the project's own layout, not this repository's.
      if (file.startsWith(join('docs', 'contract'))) return;
      assert.doesNotMatch(text, /\.\.\/shared\//, 'names ../shared/, which a clone does not have');
      for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        if (target.startsWith('/')) continue; // a path of the running service (/docs, /portal)
        assert.ok(existsSync(join(ROOT, dirname(file), target)), `${file} links to ${target}, which does not exist`);
      }
    });
  }
});

describe('the contract copies in docs/contract', () => {
  const shared = join(ROOT, '..', 'shared');
  const copies: Array<[string, string]> = [
    ['spec/interface.md', 'interface.md'],
    ['spec/decisions.md', 'decisions.md'],
    ['spec/feed.md', 'feed.md'],
    ['DESIGN.md', 'DESIGN.md'],
  ];
  for (const [source, copy] of copies) {
    it(`docs/contract/${copy} is the shared ${source}`, (t) => {
      const here = join(ROOT, 'docs', 'contract', copy);
      assert.ok(existsSync(here), `docs/contract/${copy} is missing`);
      if (!existsSync(join(shared, source))) {
        t.skip('no ../shared beside this clone: nothing to compare with');
        return;
      }
      assert.equal(
        readFileSync(here, 'utf8'),
        readFileSync(join(shared, source), 'utf8'),
        `the shared ${source} changed: copy it again (cp ../shared/${source} docs/contract/${copy})`,
      );
    });
  }
});
