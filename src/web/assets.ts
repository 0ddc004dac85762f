/**
 * The dashboard's only assets, served from this process (no CDN, no build step): one stylesheet
 * and one small script of progressive enhancements (the pages work without it).
 */
export const STYLESHEET = `
:root{--fg:#16181d;--muted:#4b5260;--line:#d5d9e0;--bg:#f6f7f9;--card:#fff;--accent:#1b4fa8;--bad:#a3161b;--ok:#1d6b35;--warn:#7a4d00}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:9}
header.top{background:#0f2a5c;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.2rem;align-items:center;font-size:.95rem}
header.top a{color:#fff}
header.top .org{font-weight:600}
nav.main ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .8rem}
figure{margin:0}
nav.main a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.top form{margin-left:auto}
main{max-width:76rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
section.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:1rem;margin:0 0 1rem}
section.card>:first-child{margin-top:0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(26rem,100%),1fr));gap:1rem}
.table-wrap{overflow-x:auto;position:relative}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);text-transform:uppercase;letter-spacing:.02em}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45rem;border-radius:1rem;font-size:.85rem;border:1px solid currentColor}
.badge.bad{color:var(--bad)}.badge.ok{color:var(--ok)}.badge.warn{color:var(--warn)}
button,.button{font:inherit;padding:.4rem .9rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
form.inline{display:inline}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=search],input[type=email],input[type=url],input[type=datetime-local],input[type=date],input[type=number],select,textarea{font:inherit;width:100%;max-width:32rem;padding:.4rem;border:1px solid #767d8a;border-radius:4px;background:#fff}
.hint{font-size:.9rem;color:var(--muted);margin:.1rem 0}
fieldset{border:1px solid var(--line);border-radius:6px;padding:.4rem .8rem .6rem;margin:.6rem 0}legend{font-weight:600;padding:0 .3rem}
label.choice{font-weight:400;display:flex;gap:.5rem;align-items:baseline;margin:.35rem 0}
.notice{border-left:4px solid var(--ok);background:#eef7f0;padding:.6rem 1rem;margin:0 0 1rem}
.error{border-left:4px solid var(--bad);background:#fbeeee;padding:.6rem 1rem;margin:0 0 1rem}
.field-error{display:block;color:var(--bad);margin:.2rem 0}
[aria-invalid=true]{border-color:var(--bad);outline:2px solid var(--bad)}
.secret{font-family:ui-monospace,monospace;background:#fff8dc;border:1px dashed var(--warn);padding:.6rem;word-break:break-all}
code{font-family:ui-monospace,monospace;font-size:.92em;word-break:break-all}
.pager{display:flex;gap:1rem;margin:.8rem 0}
.live progress,progress[data-upload-progress]{width:100%;max-width:32rem;height:1rem}.live p{margin:.4rem 0}section.card nav a[aria-current=page]{font-weight:700}
.empty{padding:1rem;color:var(--muted);font-style:italic}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.side-by-side{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
iframe.original,img.original{width:100%;min-height:28rem;border:1px solid var(--line);background:#fff}
.viewer-tools{display:flex;gap:.3rem;margin:0 0 .4rem}.viewer-tools button{min-width:2.4rem}
.viewer-frame{overflow:auto;max-height:80vh;border:1px solid var(--line);background:#fff}
.viewer-frame img.original{display:block;width:100%;height:auto;min-height:0;border:0;transform-origin:center center}
iframe.original.pdf{min-height:80vh}
article.document{border:1px solid var(--line);border-radius:6px;padding:1rem;background:#fff}
article.document h3{margin:0 0 .5rem}article.document h4{margin:0;font-size:.85rem;color:var(--muted);text-transform:uppercase}
.parties{display:flex;flex-wrap:wrap;gap:.5rem 2rem}.parties p{margin:.2rem 0 .6rem}
article.document table{margin:.5rem 0}article.document caption{text-align:left;font-size:.85rem}
article.agreement{border:1px solid var(--line);border-radius:6px;padding:.5rem 1.25rem;background:#fff;max-width:48rem;line-height:1.55;overflow-wrap:anywhere;margin:0 0 1rem}
article.agreement h2{font-size:1.35rem;margin:1rem 0 .5rem}article.agreement h3{font-size:1.15rem;margin:1rem 0 .4rem}article.agreement h4,article.agreement h5,article.agreement h6{font-size:1rem;margin:.8rem 0 .3rem}
article.agreement pre{white-space:pre-wrap;font:inherit}section.card.signing{max-width:48rem}
dl.totals{justify-content:end;margin:.5rem 0}dl.totals dd{text-align:right;font-variant-numeric:tabular-nums}
nav.subnav ul{list-style:none;margin:0 0 1rem;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}nav.subnav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
pre.markdown{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid var(--line);padding:.8rem;max-height:60vh;overflow:auto}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
ul.items{list-style:none;padding:0;margin:0}ul.items>li{border-top:1px solid var(--line);padding:.5rem 0}ul.items>li>p{margin:.2rem 0 .4rem}.actions{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:flex-end}.actions>form,.actions>div{margin:0}.actions>div{flex:1 1 14rem;max-width:32rem}
td form{margin:.2rem 0}td select{width:auto;max-width:100%}details.edit{margin:.4rem 0}td label{font-weight:400;font-size:.9rem;margin:.2rem 0}td input[type=text],td input[type=date]{min-width:9rem}
td select{min-width:12rem;width:auto}
@media (max-width:40rem){.side-by-side{grid-template-columns:1fr}header.top form{margin-left:0}th,td{padding:.35rem}}
`;

/**
 * Confirmation for forms marked `data-confirm` (destructive actions); file uploads (a file input
 * with `data-base64-into`) sent base64-encoded with a progress bar, and dropped files accepted on
 * the form. Without JS, forms submit as they are.
 */
export const SCRIPT = `
document.addEventListener('submit', function (event) {
  var form = event.target;
  var question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) { event.preventDefault(); return; }
  var inputs = form.querySelectorAll('input[type=file][data-base64-into]');
  if (!inputs.length) return;
  event.preventDefault();
  // Every file chosen in any of the form's file inputs (a file picker and a camera button), in turn.
  var files = [];
  Array.prototype.forEach.call(inputs, function (input) {
    Array.prototype.push.apply(files, Array.prototype.slice.call(input.files || []));
  });
  var status = form.querySelector('[data-upload-status]');
  var bar = form.querySelector('[data-upload-progress]');
  if (!files.length) { status.textContent = 'Choose a file first.'; return; }
  var into = inputs[0].getAttribute('data-base64-into');
  var key = form.elements.idempotencyKey ? form.elements.idempotencyKey.value : '';
  var outcomes = [];
  bar.hidden = false;
  function send(i) {
    if (i === files.length) return finish();
    var file = files[i];
    var prefix = files.length > 1 ? 'File ' + (i + 1) + ' of ' + files.length + ' (' + file.name + '): ' : '';
    var reader = new FileReader();
    reader.onload = function () {
      var data = String(reader.result);
      var body = new URLSearchParams();
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.name && el.type !== 'file' && el.type !== 'submit') body.append(el.name, el.value);
      });
      body.set(into, data.slice(data.indexOf(',') + 1));
      body.set('fileName', file.name);
      body.set('mediaType', file.type || 'application/octet-stream');
      // One idempotency key per file: the same key twice would replay the first file's answer.
      if (key && files.length > 1) body.set('idempotencyKey', key + '-' + (i + 1));
      var xhr = new XMLHttpRequest();
      xhr.open('POST', form.action);
      xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
      xhr.upload.onprogress = function (e) {
        if (!e.lengthComputable) return;
        bar.value = Math.round(((i + e.loaded / e.total) / files.length) * 100);
        status.textContent = prefix + 'uploading ' + Math.round((e.loaded / e.total) * 100) + '%';
      };
      xhr.onload = function () {
        outcomes.push({ name: file.name, ok: xhr.status < 400, url: xhr.responseURL, page: xhr.responseText });
        send(i + 1);
      };
      xhr.onerror = function () { status.textContent = prefix + 'the upload failed; check the connection and try again.'; };
      xhr.send(body.toString());
    };
    reader.readAsDataURL(file);
  }
  function finish() {
    if (outcomes.length === 1) {
      var only = outcomes[0];
      if (only.ok && only.url) { window.location.assign(only.url); return; }
      document.open(); document.write(only.page); document.close(); return;
    }
    var failed = outcomes.filter(function (o) { return !o.ok; });
    var duplicates = outcomes.filter(function (o) { return o.ok && /[?&]duplicate=1/.test(o.url); }).length;
    var done = outcomes.length - failed.length;
    var back = form.elements._back ? form.elements._back.value : window.location.pathname;
    var query = 'uploaded=' + done + '&duplicates=' + duplicates;
    if (!failed.length) { window.location.assign(back + (back.indexOf('?') < 0 ? '?' : '&') + query); return; }
    // Some files were refused: say which and why here, where the member can choose them again.
    status.textContent = done + ' of ' + outcomes.length + ' uploaded' + (duplicates ? ' (' + duplicates + ' already in the inbox)' : '') + '; these were not:';
    var list = document.createElement('ul');
    failed.forEach(function (o) {
      // The refusal on the page that came back: beside the file input, or above the form.
      var reason = new DOMParser().parseFromString(o.page, 'text/html').querySelector('[data-refusal] strong, .error p');
      var item = document.createElement('li');
      item.textContent = o.name + ': ' + (reason ? reason.textContent : 'refused');
      list.appendChild(item);
    });
    status.parentNode.insertBefore(list, status.nextSibling);
  }
  send(0);
});
// Enhancements of elements, run on the page and again on a part drawn in place (live work).
function enhance(root) {
// "Tick every entry on this page" (the ledger's bulk form): shown only with script; it ticks the
// boxes that belong to the form named by data-tick-all.
Array.prototype.forEach.call(root.querySelectorAll('[data-tick-all]'), function (box) {
  box.closest('label').hidden = false;
  box.addEventListener('change', function () {
    var name = box.getAttribute('data-tick-all');
    Array.prototype.forEach.call(document.querySelectorAll('input[type=checkbox][form="' + name + '"]'), function (other) {
      other.checked = box.checked;
    });
  });
});
// Copy buttons (a secret shown once): the text of the element named by data-copy goes to the
// clipboard, and the status next to it says whether it did.
Array.prototype.forEach.call(root.querySelectorAll('button[data-copy]'), function (button) {
  if (navigator.clipboard) button.hidden = false;
});
// The original's viewer (pages/receipt-document.ts): zoom in 25% steps inside its scrolling frame
// and rotate by quarter turns; the tools show only when this runs.
Array.prototype.forEach.call(root.querySelectorAll('[data-viewer]'), viewer);
Array.prototype.forEach.call(root.querySelectorAll('[data-live]'), follow);
}
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button[data-copy]');
  if (!button) return;
  var id = button.getAttribute('data-copy');
  var source = document.getElementById(id);
  var status = document.querySelector('[data-copy-status="' + id + '"]');
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    status.textContent = 'Copied';
  }, function () {
    status.textContent = 'Could not copy; select the text and copy it by hand.';
  });
});
document.addEventListener('dragover', function (event) {
  if (event.target.closest && event.target.closest('form') && event.target.closest('form').querySelector('input[type=file]')) event.preventDefault();
});
document.addEventListener('drop', function (event) {
  var form = event.target.closest && event.target.closest('form');
  var input = form && form.querySelector('input[type=file]');
  if (!input || !event.dataTransfer.files.length) return;
  event.preventDefault();
  input.files = event.dataTransfer.files;
  var status = form.querySelector('[data-upload-status]');
  if (status) status.textContent = 'Ready to upload ' + input.files[0].name;
});
function viewer(frame) {
  var tools = frame.querySelector('.viewer-tools');
  var image = frame.querySelector('img');
  var zoom = 1, turn = 0;
  function draw() {
    image.style.width = (zoom * 100) + '%';
    image.style.transform = turn ? 'rotate(' + (turn * 90) + 'deg)' : '';
  }
  tools.hidden = false;
  tools.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    var how = button.getAttribute('data-zoom');
    if (how === 'in') zoom = Math.min(zoom + 0.25, 4);
    if (how === 'out') zoom = Math.max(zoom - 0.25, 0.5);
    if (how === 'fit') { zoom = 1; turn = 0; }
    if (button.hasAttribute('data-rotate')) turn = (turn + 1) % 4;
    draw();
  });
}
// Live work (dashboard/live.ts): a region marked data-live polls its small JSON while the work
// runs, shows its status, bar and the values marked data-live-field, waits longer between polls
// as time goes on (at most 5 s) and not at all while the tab is hidden, and once the work has
// ended draws the page again in place. A failed poll stops and points at the refresh link.
function follow(region) {
  var source = region.getAttribute('data-live');
  var status = region.querySelector('[data-live-status]');
  var bar = region.querySelector('progress');
  var delay = 1000;
  function poll() {
    if (!region.isConnected) return;
    if (document.hidden) { document.addEventListener('visibilitychange', poll, { once: true }); return; }
    fetch(source, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (state) {
        show(state);
        if (state.done) return redraw(status);
        delay = Math.min(delay * 1.5, 5000);
        setTimeout(poll, delay);
      })
      .catch(function () {
        status.textContent = 'Could not check how the work stands; refresh the page to see the latest.';
      });
  }
  function show(state) {
    if (status.textContent !== state.status) status.textContent = state.status;
    if (state.progress) { bar.max = state.progress.max; bar.value = state.progress.value; }
    else bar.removeAttribute('value');
    Object.keys(state.fields || {}).forEach(function (name) {
      Array.prototype.forEach.call(document.querySelectorAll('[data-live-field="' + name + '"]'), function (el) {
        el.textContent = state.fields[name];
      });
    });
  }
  setTimeout(poll, delay);
}
// The work has ended: the page is read again and its main part replaced, so everything the work
// changed shows without a reload; the status, with its last words, stays at the top of it.
function redraw(status) {
  return fetch(window.location.href, { cache: 'no-store', credentials: 'same-origin' })
    .then(function (response) {
      if (!response.ok || response.redirected) throw new Error('status ' + response.status);
      return response.text();
    })
    .then(function (text) {
      var next = new DOMParser().parseFromString(text, 'text/html');
      var fresh = next.querySelector('main');
      var main = document.querySelector('main');
      if (!fresh || !main) throw new Error('no main');
      var hadFocus = main.contains(document.activeElement);
      document.title = next.title;
      var notice = document.createElement('div');
      notice.className = 'notice';
      notice.appendChild(status);
      main.replaceChildren.apply(main, Array.prototype.map.call(fresh.childNodes, function (node) {
        return document.importNode(node, true);
      }));
      var heading = main.querySelector('h1');
      main.insertBefore(notice, heading ? heading.nextSibling : main.firstChild);
      // Focus in the replaced part would fall back to the body: it goes to the top of main instead.
      if (hadFocus) main.focus();
      enhance(main);
    });
}
enhance(document);
`;
