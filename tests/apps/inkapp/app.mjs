#!/usr/bin/env node
// A sign-up form written with ink, the way ink apps are usually written: `useInput` for the
// keys, Tab to move between the fields, Enter to send. tuicast's pacing tests type into it
// (tests/it/pacing.rs): a key that reaches it in the same read as the next one is taken as
// text (ink hands `useInput` one chunk at a time), so it shows whether keys arrive as a
// person types them.
import React, {useState} from 'react';
import {render, Box, Text, useApp, useInput} from 'ink';

const h = React.createElement;
const fields = ['Name', 'City'];

function Form() {
  const {exit} = useApp();
  const [values, setValues] = useState({Name: '', City: ''});
  const [focus, setFocus] = useState(0);
  const [sent, setSent] = useState(false);
  useInput((input, key) => {
    if (sent) {
      if (input === 'q') exit();
      return;
    }
    if (key.tab) {
      setFocus(f => (f + (key.shift ? fields.length - 1 : 1)) % fields.length);
    } else if (key.return) {
      setSent(true);
    } else if (key.backspace || key.delete) {
      const name = fields[focus];
      setValues(v => ({...v, [name]: v[name].slice(0, -1)}));
    } else if (input && !key.ctrl && !key.meta) {
      const name = fields[focus];
      setValues(v => ({...v, [name]: v[name] + input.replace(/[\x00-\x1f\x7f]/g, '')}));
    }
  });
  if (sent) {
    return h(Box, {flexDirection: 'column', borderStyle: 'round', paddingX: 1},
      h(Text, {color: 'green'}, `Welcome, ${JSON.stringify(values.Name)} of ${JSON.stringify(values.City)}!`),
      h(Text, {dimColor: true}, 'q to quit'));
  }
  return h(Box, {flexDirection: 'column', borderStyle: 'round', paddingX: 1},
    h(Text, {bold: true}, 'Sign up'),
    ...fields.map((name, i) => h(Text, {key: name, color: i === focus ? 'cyan' : undefined},
      `${i === focus ? '>' : ' '} ${name}: ${values[name]}${i === focus ? '_' : ''}`)),
    h(Text, {dimColor: true}, 'Tab: next field  Enter: send'));
}

render(h(Form));
