/**
 * Emails as teams write them, for the HTML check's tests
 * (test/vitest/render-check.test.ts, test/admin/checks.test.ts): a
 * table-based marketing email written by hand, and templates made of React
 * Email's own components, rendered by `@react-email/render` (no JSX: this
 * suite compiles `.ts` only).
 */
import React from 'react';
import { render } from '@react-email/render';
import { Body, Button, Container, Head, Html, Img, Link, Section, Text } from '@react-email/components';

const h = React.createElement;

/** A marketing email as built for Outlook: nested tables with `role="presentation"`, `bgcolor` and `width` attributes, inline styles, a button made of a table cell holding a link, two product columns, a footer. */
export const MARKETING_HTML = `
<!DOCTYPE html>
<html lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>Spring sale: 20% off everything</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6">
  <tr>
    <td align="center" style="padding:24px 12px">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="width:600px;max-width:600px">
        <tr>
          <td align="center" style="padding:24px">
            <a href="https://shop.example.com/?utm_source=email" target="_blank"><img src="https://shop.example.com/logo.png" width="120" height="40" alt="Acme Shop" border="0" style="display:block;border:0"></a>
          </td>
        </tr>
        <tr>
          <td style="padding:0 24px 8px 24px;font-family:Arial,Helvetica,sans-serif;font-size:24px;line-height:32px;color:#111827;font-weight:bold">
            Spring sale: 20% off everything
          </td>
        </tr>
        <tr>
          <td style="padding:0 24px 24px 24px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:24px;color:#374151">
            Hi Ada, our spring collection is here. Use the code <strong>SPRING20</strong> at checkout until Sunday.
          </td>
        </tr>
        <tr>
          <td align="center" style="padding:0 24px 32px 24px">
            <table role="presentation" cellpadding="0" cellspacing="0" border="0">
              <tr>
                <td align="center" bgcolor="#4f46e5" style="border-radius:6px;background-color:#4f46e5">
                  <a href="https://shop.example.com/sale" target="_blank" style="display:inline-block;padding:12px 28px;font-family:Arial,Helvetica,sans-serif;font-size:16px;color:#ffffff;text-decoration:none;font-weight:bold">Shop the sale</a>
                </td>
              </tr>
            </table>
          </td>
        </tr>
        <tr>
          <td style="padding:0 24px">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
              <tr>
                <td width="50%" valign="top" style="padding:8px;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#374151">
                  <img src="https://shop.example.com/jacket.jpg" width="260" alt="Rain jacket" style="display:block;width:100%;max-width:260px;height:auto"><br>Rain jacket, $96
                </td>
                <td width="50%" valign="top" style="padding:8px;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#374151">
                  <img src="https://shop.example.com/boots.jpg" width="260" alt="Boots" style="display:block;width:100%;max-width:260px;height:auto"><br>Boots, $120
                </td>
              </tr>
            </table>
          </td>
        </tr>
        <tr>
          <td align="center" style="padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#6b7280">
            Acme Shop, 1 Market Street, Springfield.<br>
            <a href="https://shop.example.com/unsubscribe" target="_blank" style="color:#6b7280;text-decoration:underline">Unsubscribe</a>
          </td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>
`;

/** The smallest React Email template: `<Html><Body><Text>Hi</Text></Body></Html>`. */
export function smallestReactEmail(): Promise<string> {
  return render(h(Html, null, h(Body, null, h(Text, null, 'Hi'))));
}

/** A welcome email made of React Email's components (Html, Head, Body, Container, Section, Text, Img, Button, Link), styled as their docs show. */
export function welcomeReactEmail(): Promise<string> {
  return render(
    h(Html, { lang: 'en' },
      h(Head, null),
      h(Body, { style: { backgroundColor: '#f6f9fc', fontFamily: 'Helvetica, Arial, sans-serif' } },
        h(Container, { style: { backgroundColor: '#ffffff', padding: '20px 0 48px', marginBottom: '64px' } },
          h(Section, { style: { padding: '0 48px' } },
            h(Img, { src: 'https://acme.example.com/logo.png', width: 49, height: 21, alt: 'Acme' }),
            h(Text, { style: { fontSize: '16px', lineHeight: '24px', color: '#525f7f' } }, 'Thanks for signing up, Ada. Your account is ready.'),
            h(Button, { href: 'https://acme.example.com/dashboard', style: { backgroundColor: '#656ee8', borderRadius: '5px', color: '#fff', fontSize: '16px', fontWeight: 'bold', textAlign: 'center', display: 'block', padding: '10px' } }, 'View your dashboard'),
            h(Text, { style: { fontSize: '16px', lineHeight: '24px', color: '#525f7f' } }, 'Questions? Read ', h(Link, { href: 'https://acme.example.com/docs', style: { color: '#556cd6' } }, 'the docs'), '.'))))));
}
