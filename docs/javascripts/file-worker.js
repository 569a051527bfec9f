/* Search on a site opened from the file system (site/index.html, no server).
 *
 * Material's search runs its index in a Web Worker, and browsers refuse to start a worker
 * from a file:// URL. Only there, this replaces Worker with a stand-in that runs the same
 * script in a hidden frame of the page (same origin): messages posted to the stand-in are
 * dispatched in the frame, and what the script posts back is dispatched on the stand-in.
 * Served over HTTP(S), nothing changes. Loaded before Material's bundle (a "polyfill"). */
(function () {
  "use strict";
  if (window.location.protocol !== "file:" || window.FileWorker) { return; }

  class FileWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this.pending = [];
      this.ready = false;
      var worker = this;
      var frame = document.createElement("iframe");
      frame.hidden = true;
      frame.setAttribute("aria-hidden", "true");
      frame.setAttribute("tabindex", "-1");
      document.documentElement.appendChild(frame);
      this.frame = frame;
      var scope = frame.contentWindow;
      scope.postMessage = function (data) { worker.deliver("message", data); };
      var script = scope.document.createElement("script");
      script.src = new URL(url, document.baseURI).href;
      script.onload = function () {
        worker.ready = true;
        var queued = worker.pending;
        worker.pending = [];
        queued.forEach(function (data) { worker.postMessage(data); });
      };
      script.onerror = function () { worker.deliver("error", null); };
      scope.document.head.appendChild(script);
    }
    deliver(type, data) {
      var event = type === "message" ? new MessageEvent("message", {data: data})
                                     : new Event("error");
      var handler = type === "message" ? this.onmessage : this.onerror;
      if (typeof handler === "function") { handler.call(this, event); }
      this.dispatchEvent(event);
    }
    postMessage(data) {
      if (!this.ready) { this.pending.push(data); return; }
      var scope = this.frame.contentWindow;
      scope.dispatchEvent(new scope.MessageEvent("message", {data: data}));
    }
    terminate() {
      if (this.frame.parentNode) { this.frame.parentNode.removeChild(this.frame); }
    }
  }

  window.FileWorker = FileWorker;
  window.Worker = FileWorker;
})();
