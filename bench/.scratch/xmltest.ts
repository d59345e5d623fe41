import { parseXml } from '../../src/core/xml/dom';
const cases = ['<a><b>half', '<a><b></a>', '<?xml version="1.0"?><!DOCTYPE x><a/>', '<a x="1" x="2"/>', '<a>&bogus</a>', '<a>&nbsp; &amp; &#65;</a>', '<p:a/>', '<a/><b/>', 'text<a/>', '<a/>text', '<a b/>', '<a><![CDATA[x<y]]>z</a>', '<a><!-- c --><?pi x?>t</a >', '<a xmlns="u" xmlns:p="v"><p:b p:c="1" d="2"/></a>', '<a', '<a b="1', '<a></a'];
for (const c of cases) { try { console.log(JSON.stringify(c), '→', JSON.stringify(parseXml(c))); } catch (e) { console.log(JSON.stringify(c), '✗', (e as Error).message, (e as any).code); } }
