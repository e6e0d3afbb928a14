// Shows this status page's verdict and active incidents in a corner of the page that loads it:
//   <script src="https://status.example.com/status/embed.js" async></script>
// It reads the public Statuspage-compatible summary with credentials omitted (no cookie is sent or
// set), builds its box from text nodes only (nothing it reads becomes markup), and keeps to a corner.
(function () {
  'use strict';
  var WORDS = /*WORDS*/{};
  var COLOURS = { none: '#2e7d32', minor: '#8a6d00', major: '#c2410c', critical: '#c62828', maintenance: '#1565c0' };
  var HEADLINES = {
    none: 'headline.operational',
    minor: 'headline.degraded_performance',
    major: 'headline.partial_outage',
    critical: 'headline.major_outage',
    maintenance: 'headline.under_maintenance'
  };
  var script = document.currentScript;
  if (!script || !window.fetch) {
    return;
  }
  var origin = new URL(script.src, window.location.href).origin;

  function element(tag, text) {
    var node = document.createElement(tag);
    if (text) {
      node.textContent = text;
    }
    return node;
  }

  function show(summary) {
    var indicator = summary && summary.status && summary.status.indicator;
    var box = element('aside');
    box.setAttribute('aria-label', WORDS['embed.title']);
    var s = box.style;
    s.position = 'fixed';
    s.right = '1rem';
    s.bottom = '1rem';
    s.zIndex = '2147483000';
    s.maxWidth = '20rem';
    s.padding = '0.75rem 1rem';
    s.borderRadius = '0.5rem';
    s.boxShadow = '0 0.25rem 1rem rgba(0,0,0,0.25)';
    s.background = '#ffffff';
    s.color = '#1a1a1a';
    s.font = '14px/1.4 system-ui, sans-serif';
    s.borderLeft = '0.375rem solid ' + (COLOURS[indicator] || '#616161');
    var headline = element('p', WORDS[HEADLINES[indicator]] || (summary.status && summary.status.description) || '');
    headline.style.margin = '0 1.5rem 0.25rem 0';
    headline.style.fontWeight = '600';
    box.appendChild(headline);
    var incidents = (summary && summary.incidents) || [];
    if (incidents.length > 0) {
      var list = element('ul');
      list.setAttribute('aria-label', WORDS['section.incidents']);
      list.style.margin = '0.25rem 0';
      list.style.paddingLeft = '1.25rem';
      incidents.slice(0, 5).forEach(function (incident) {
        list.appendChild(element('li', String(incident.name || '')));
      });
      box.appendChild(list);
    }
    var link = element('a', WORDS['embed.open']);
    link.href = origin + '/status';
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.style.color = 'inherit';
    box.appendChild(link);
    var close = element('button', '\u00d7');
    close.type = 'button';
    close.setAttribute('aria-label', WORDS['embed.close']);
    close.style.position = 'absolute';
    close.style.top = '0.25rem';
    close.style.right = '0.5rem';
    close.style.border = '0';
    close.style.background = 'transparent';
    close.style.font = 'inherit';
    close.style.fontSize = '1.25rem';
    close.style.cursor = 'pointer';
    close.addEventListener('click', function () {
      box.remove();
    });
    box.appendChild(close);
    document.body.appendChild(box);
  }

  fetch(origin + '/status/api/v2/summary.json', { credentials: 'omit', referrerPolicy: 'no-referrer' })
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .then(function (summary) {
      if (summary) {
        show(summary);
      }
    })
    .catch(function () {
      // The status page is unreachable: show nothing rather than a broken box.
    });
})();
