/*
 * The test LMS (host.html). Its fragment says what to do, as JSON in `#` + encodeURIComponent:
 *   launch  the SCO's URL (the manifest's resource href and item parameters), relative to here
 *   api     "scorm-again" (default): window.API = new Scorm12API(); "none": no API at all;
 *           "broken": an object that is no SCORM API
 *   settings  Scorm12API settings over ours (lmsCommitUrl: where the LMS stores each commit)
 *   data    what the LMS already holds for this learner, for Scorm12API.loadFromJSON (a return
 *           visit: cmi.core.entry, cmi.suspend_data; the manifest's mastery score)
 * It records which calls the SCO made (window.lmsCalls, values set included), the messages it
 * posted to this page (window.lmsMessages: pelab:quiz, as any host page gets them), and offers
 * window.lmsRecord(), the runtime's cmi as JSON, write-only elements included.
 */
(function () {
  "use strict";
  var options = JSON.parse(decodeURIComponent(location.hash.slice(1)) || "{}");
  window.lmsCalls = [];
  window.lmsMessages = [];
  window.addEventListener("message", function (event) {
    window.lmsMessages.push(event.data);
  });
  var api = options.api || "scorm-again";
  if (api === "scorm-again") {
    var settings = { autocommit: false, logLevel: 5 };
    Object.keys(options.settings || {}).forEach(function (key) { settings[key] = options.settings[key]; });
    window.API = new window.Scorm12API(settings);
    if (options.data) window.API.loadFromJSON(options.data);
    ["LMSInitialize", "LMSCommit", "LMSFinish"].forEach(function (name) {
      window.API.on(name, function () { window.lmsCalls.push(name); });
    });
    window.API.on("LMSSetValue.cmi.*", function (element, value) {
      window.lmsCalls.push("LMSSetValue " + element + "=" + value);
    });
    window.lmsRecord = function () {
      return JSON.parse(JSON.stringify(window.API.cmi));
    };
  } else if (api === "broken") {
    window.API = { version: "not a SCORM API" };
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!options.launch) return;
    var frame = document.createElement("iframe");
    frame.id = "sco";
    frame.title = "The course package";
    frame.width = "1000";
    frame.height = "700";
    frame.src = options.launch;
    document.body.append(frame);
  });
})();
