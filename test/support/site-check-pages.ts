import { JSDOM } from 'jsdom';

/**
 * Pages the site check's specs share: one that passes every check, one
 * that breaks the rules the task's users meet most.
 */
export const GOOD_PAGE = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="description" content="Quiet Harbor keeps boats safe.">',
  '<title>Quiet Harbor</title>',
  '<style>body{color:#1a1a1a;background:#ffffff} .hero{background-image:url(data:image/png;base64,iVBORw0KGgo=)}</style>',
  '</head><body><header><h1>Quiet Harbor</h1></header><main>',
  '<section><h2>Moorings</h2><p>Safe all year. <a href="#contact">Contact</a> or <a href="mailto:a@b.example">mail</a>.</p>',
  '<img src="data:image/png;base64,iVBORw0KGgo=" alt="A boat" width="10" height="10"></section>',
  '<section id="contact"><h2>Contact</h2><p><a href="tel:+15550100">Call us</a></p></section>',
  '</main></body></html>',
].join('\n');

export const BAD_PAGE = [
  '<!doctype html>',
  '<html><head><meta charset="utf-8">',
  '<link rel="stylesheet" href="https://cdn.example.com/site.css">',
  '<style>@import "https://fonts.example.com/f.css"; p{color:#aaaaaa;background:#ffffff}</style>',
  '</head><body><main><h2>Bad</h2><h4>Skipped</h4>',
  '<img src="https://img.example.com/a.png" srcset="data:image/png;base64,AA 1x, https://img.example.com/b.png 2x">',
  '<p style="color:#777777;background-color:white">Grey</p>',
  '<form action="https://collect.example.com"><button>Go</button></form>',
  '<div style="background:url(https://img.example.com/c.png)">x</div>',
  '<script src="https://cdn.example.com/app.js"></script>',
  '</main></body></html>',
].join('\n');

/** A page parsed as the checks parse it: no scripts run, nothing loaded. */
export const documentOf = (html: string): Document =>
  new JSDOM(html).window.document;
