/**
 * Service pages reached through a path-prefix proxy (code-server's /proxy/<port>/): the pages'
 * relative links, and the URL Open Service Page opens when the proxy mapping drops the page path.
 */
import { strict as assert } from 'node:assert';
import { servicePaths } from '../../src/core/catalog';
import { repairedExternalUrl } from '../../src/extension/sandbox/externalPageUrl';
import { operationPageHref, relativeHref } from '../../src/sandbox/pages/links';

describe('service page links', () => {
  const paths = [...servicePaths().keys()];

  it('lead from every service page to every page, with or without a proxy prefix', () => {
    for (const from of paths) {
      for (const to of paths) {
        for (const target of [to, `${to}?WSDL`, operationPageHref(to, 'GetX', { soap: '1.2' }) + '#result', `${to}/GetX`]) {
          const href = relativeHref(from, target);
          assert.ok(!href.startsWith('/'), href);
          const direct = new URL(href, `http://127.0.0.1:4000${from}`);
          assert.equal(`${direct.pathname}${direct.search}${direct.hash}`, target);
          const proxied = new URL(href, `http://127.0.0.1:8080/proxy/4000${from}?op=Other`);
          assert.equal(`${proxied.pathname}${proxied.search}${proxied.hash}`, `/proxy/4000${target}`);
        }
      }
    }
  });

  it('keeps a link within the same service short', () => {
    assert.equal(
      relativeHref('/1.0.2/TerminalInformationService.asmx', '/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation'),
      'TerminalInformationService.asmx?op=GetTerminalInformation',
    );
    assert.equal(relativeHref('/sandbox/BillOfLadingService.asmx', '/1.0.3/RateQuoteService.asmx'), '../1.0.3/RateQuoteService.asmx');
  });
});

describe('Open Service Page behind a port mapping', () => {
  const page = 'http://127.0.0.1:41234/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation';

  it('opens the page itself where the mapping keeps its path (desktop, Remote-SSH)', () => {
    assert.equal(repairedExternalUrl(page, page), undefined);
    assert.equal(repairedExternalUrl(page, 'http://localhost:50123/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation'), undefined);
  });

  it("puts the page's path and query under code-server's proxy root, which keeps only the port", () => {
    assert.equal(
      repairedExternalUrl(page, 'http://127.0.0.1:8080/proxy/41234/'),
      'http://127.0.0.1:8080/proxy/41234/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation',
    );
    assert.equal(
      repairedExternalUrl(page, 'https://vscode.example/base/proxy/41234/'),
      'https://vscode.example/base/proxy/41234/1.0.2/TerminalInformationService.asmx?op=GetTerminalInformation',
    );
  });
});
