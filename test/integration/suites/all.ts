// Every in-host suite, bundled into one file that mocha loads inside the extension host.
import './tree.test';
import './diagnostics.test';
import './problemWords.test';
import './quickfix.test';
import './lifecycle.test';
import './reports.test';
import './drift.test';
import './eva.test';
import './recheck.test';
