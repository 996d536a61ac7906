// The pages' markup, one copy for both languages. Every text comes from the page's string table
// (the data-i18n keys), filled in by app.js. The page has no form, so its buttons need no type. On wide screens the inputs stay in view on the left
// while the summary, the pictures and the details scroll on the right; on a phone the summary comes
// first (calculator.css). A new section is one more <section> here and one file in web/js/page.js.
document.body.insertAdjacentHTML('afterbegin', `
<a class="skip" href="#results" data-i18n="skipToResults"></a>
<main class="wrap">
  <header class="top">
    <div>
      <h1 data-i18n="heading"></h1>
      <a id="open-full" class="open-full" target="_blank" rel="noopener" hidden data-i18n="openFull"></a>
      <p class="sub" data-i18n="subtitle"></p>
      <p class="sub paper" data-i18n="paper"></p>
      <nav class="jump" id="jump">
        <a href="#section=calculator" data-section="calculator" data-i18n="navCalculator"></a>
        <a href="#section=plan" data-section="plan" data-i18n="navPlan"></a>
        <a href="#section=measured-run" data-section="measured-run" data-i18n="navMeasuredRun"></a>
        <a href="#section=simulate" data-section="simulate" data-i18n="navSimulate"></a>
      </nav>
    </div>
    <a id="lang-switch" class="lang" href="#"></a>
  </header>
  <div class="layout">
  <section class="card" id="inputs" aria-labelledby="inputs-h">
    <h2 id="inputs-h" data-i18n="inputsHeading"></h2>
    <div class="grid" id="fields"></div>
    <div class="presets-block">
      <h3 id="presets-h" data-i18n="presetsHeading"></h3>
      <div class="presets" id="presets" role="group" aria-labelledby="presets-h" aria-describedby="presets-note"></div>
      <p class="hint" id="presets-note" data-i18n="presetsNote"></p>
      <p class="hint" id="fill-status"></p>
      <p class="attribution" data-i18n="dataAttribution"></p>
    </div>
  </section>

  <div class="main" id="main">
  <section class="card" id="results" aria-labelledby="results-h" tabindex="-1">
    <h2 id="results-h"><span data-i18n="resultsHeading"></span> <span id="stale-badge" class="badge" hidden data-i18n="notCurrent"></span></h2>
    <p id="results-invalid" class="invalid-note" hidden data-i18n="resultsInvalid"></p>
    <dl id="summary" class="summary"></dl>
    <div id="reconcile" class="reconcile" hidden></div>
    <p id="announce" class="sr-only" aria-live="polite"></p>
  </section>

  <section class="card figures" id="figures" aria-labelledby="figures-h">
    <h2 id="figures-h" data-i18n="figuresHeading"></h2>
    <figure id="fig-curve">
      <figcaption><strong data-i18n="fig_curve"></strong> <span data-i18n="fig_curve_caption"></span></figcaption>
      <p class="fig-note" id="curve-note"></p>
      <div class="chart" id="chart-curve"></div>
      <div class="fig-actions"><button class="scale-toggle" data-chart="curve" aria-pressed="false" data-i18n="logM"></button><button class="zoom-reset" data-chart="curve" hidden data-i18n="resetZoom"></button><span class="export-reason"></span><button data-export="png-curve" data-i18n="exportPng"></button></div>
    </figure>
    <figure id="fig-gantt">
      <figcaption><strong data-i18n="fig_gantt"></strong> <span data-i18n="fig_gantt_caption"></span></figcaption>
      <div class="gantt-bar">
        <div class="toggle" role="group" id="regime-toggle">
          <button data-regime="async" data-i18n="regime_async"></button>
          <button data-regime="blocking" data-i18n="regime_blocking"></button>
        </div>
        <div class="toggle zoom" role="group" id="gantt-zoom">
          <button data-zoom="in" data-i18n="zoomIn"></button>
          <button data-zoom="out" data-i18n="zoomOut"></button>
          <button data-zoom="left" data-i18n="panLeft"></button>
          <button data-zoom="right" data-i18n="panRight"></button>
          <button data-zoom="reset" data-i18n="resetZoom"></button>
        </div>
      </div>
      <p class="fig-note" id="gantt-note"></p>
      <div class="legend" id="gantt-legend"></div>
      <div class="svgbox" id="chart-gantt"></div>
      <p class="gantt-tip" id="gantt-tip" aria-hidden="true" hidden></p>
      <div class="fig-actions"><span class="export-reason"></span><button data-export="csv-schedule" data-i18n="exportScheduleCsv"></button><button data-export="svg-gantt" data-i18n="exportSvg"></button></div>
    </figure>
    <figure id="fig-over">
      <figcaption><strong data-i18n="fig_over"></strong> <span data-i18n="fig_over_caption"></span></figcaption>
      <div class="chart" id="chart-over"></div>
      <div class="fig-actions"><button class="scale-toggle" data-chart="over" aria-pressed="false" data-i18n="logM"></button><button class="zoom-reset" data-chart="over" hidden data-i18n="resetZoom"></button><span class="export-reason"></span><button data-export="png-over" data-i18n="exportPng"></button></div>
    </figure>
    <figure id="fig-slack">
      <figcaption><strong data-i18n="fig_slack"></strong> <span data-i18n="fig_slack_caption"></span></figcaption>
      <p class="fig-note" id="slack-note"></p>
      <div class="svgbox" id="chart-slack"></div>
      <div class="fig-actions"><span class="export-reason"></span><button data-export="svg-slack" data-i18n="exportSvg"></button></div>
    </figure>
  </section>

  <section class="card" id="details" aria-labelledby="details-h">
    <h2 id="details-h" data-i18n="detailsHeading"></h2>
    <div id="result-groups"></div>
  </section>

  <section class="card share" id="share" aria-labelledby="share-h">
    <h2 id="share-h" data-i18n="shareHeading"></h2>
    <div class="actions">
      <button id="copy-link" data-i18n="copyLink"></button>
      <button data-export="json" data-i18n="exportJson"></button>
      <button data-export="csv" data-i18n="exportCsv"></button>
      <span class="export-reason"></span>
      <span id="copy-status" role="status"></span>
      <span id="link-reason" class="hint"></span>
    </div>
    <h3 data-i18n="embedHeading"></h3>
    <p data-i18n="embedHelp"></p>
    <pre class="snippet" tabindex="0"><code id="embed-snippet"></code></pre>
  </section>
  </div>
  </div>

  <footer class="footnote" id="footnote">
    <h2 data-i18n="footnoteHeading"></h2>
    <div id="formulas"></div>
    <p id="version"></p>
  </footer>
</main>
`);
