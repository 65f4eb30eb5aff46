import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';

/**
 * Padlock's live page: the locks this application holds now, its callers queued per key, its latest losses, and what
 * the server check found on Redis that can void a lock.
 * Polls the PadlockDevUIService once a second while the page is shown.
 */
export class QwcPadlockLive extends LitElement {
    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host {
            display: flex;
            flex-direction: column;
            gap: 16px;
            padding: 10px;
        }
        h3 {
            margin: 0 0 6px 0;
            font-size: var(--lumo-font-size-m);
        }
        table {
            border-collapse: collapse;
            width: 100%;
            font-size: var(--lumo-font-size-s);
        }
        th, td {
            text-align: left;
            padding: 4px 8px;
            border-bottom: 1px solid var(--lumo-contrast-10pct);
        }
        th {
            color: var(--lumo-contrast-60pct);
            font-weight: normal;
        }
        .none {
            color: var(--lumo-contrast-50pct);
            font-size: var(--lumo-font-size-s);
        }
        .lost, .error {
            color: var(--lumo-error-text-color);
        }
    `;

    static properties = {
        _live: { state: true },
        _error: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 1000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.liveLocks()
            .then(response => {
                this._live = response.result;
                this._error = null;
            })
            .catch(failure => {
                this._error = failure && failure.error ? failure.error.message : String(failure);
            });
    }

    render() {
        if (this._error) {
            return html`<div class="error">Padlock's live state could not be read: ${this._error}</div>`;
        }
        if (!this._live) {
            return html`<div class="none">Reading Padlock's live state…</div>`;
        }
        return html`
            <section>
                <h3>Held now (${this._live.held.length})</h3>
                ${this._held(this._live.held)}
            </section>
            <section>
                <h3>Queued callers</h3>
                ${this._queues(this._live.queues)}
            </section>
            <section>
                <h3>Recent losses</h3>
                ${this._losses(this._live.losses)}
            </section>
            <section>
                <h3>Redis server</h3>
                ${this._server(this._live.serverChecked, this._live.server)}
            </section>`;
    }

    _server(checked, rows) {
        if (!checked) {
            return html`<div class="none">Padlock has not checked the server yet (it does once connected).</div>`;
        }
        if (rows.length === 0) {
            return html`<div class="none">Padlock found nothing on the server that can void a lock.</div>`;
        }
        return html`<table>
            <tr><th>severity</th><th>node</th><th>setting</th><th>value</th><th>what it means, and the fix</th></tr>
            ${rows.map(r => html`<tr class="${r.severity === 'UNSAFE' ? 'lost' : ''}">
                <td>${r.severity}</td><td>${r.node}</td><td>${r.setting}</td><td>${r.value}</td>
                <td>${r.message}</td></tr>`)}
        </table>`;
    }

    _held(rows) {
        if (rows.length === 0) {
            return html`<div class="none">No lock is held by this application now.</div>`;
        }
        return html`<table>
            <tr><th>key</th><th>lock</th><th>method</th><th>type</th><th>held for</th><th>lease left</th><th>lease</th><th>state</th></tr>
            ${rows.map(r => html`<tr class="${r.state === 'lost' ? 'lost' : ''}">
                <td>${r.key}</td><td>${r.lock}</td><td>${r.method}</td><td>${r.type}</td>
                <td>${this._millis(r.heldMillis)}</td><td>${this._millis(r.leaseLeftMillis)}</td>
                <td>${r.lease}</td><td>${r.state}</td></tr>`)}
        </table>`;
    }

    _queues(rows) {
        if (rows.length === 0) {
            return html`<div class="none">No caller waits in this application's local queues.</div>`;
        }
        return html`<table>
            <tr><th>key</th><th>callers waiting</th></tr>
            ${rows.map(r => html`<tr><td>${r.key}</td><td>${r.waiting}</td></tr>`)}
        </table>`;
    }

    _losses(rows) {
        if (rows.length === 0) {
            return html`<div class="none">No lock was lost since the application started.</div>`;
        }
        return html`<table>
            <tr><th>at</th><th>key</th><th>method</th><th>detected by</th><th>held for</th><th>cause</th></tr>
            ${rows.map(r => html`<tr class="lost">
                <td>${r.at}</td><td>${r.key}</td><td>${r.method}</td><td>${r.detectedBy}</td>
                <td>${this._millis(r.heldMillis)}</td><td>${r.cause}</td></tr>`)}
        </table>`;
    }

    _millis(ms) {
        if (ms < 0) {
            return 'passed ' + this._millis(-ms) + ' ago';
        }
        return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s';
    }
}
customElements.define('qwc-padlock-live', QwcPadlockLive);
