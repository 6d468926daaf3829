// Matrix client-server API
// (https://spec.matrix.org/latest/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid):
// PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with the access token as
// a Bearer and a JSON {msgtype: "m.text", body}. The URL is matrix://:TOKEN@HOMESERVER/?room=!id:server;
// the transaction id is unique per message, so a retry of the same message is not posted twice.
// Plain text (no format, no formatted_body), and an empty m.mentions: a client or server that
// knows intentional mentions does not read "@room" or a name in the body as one.
import { textOf, titleOf } from '../message.js';
import { json, without, type ServiceShape } from '../outgoing.js';

let sequence = 0;

export const matrix: ServiceShape = {
  problem: (endpoint) => {
    if (!endpoint.password) return 'Matrix needs an access token: matrix://:TOKEN@HOMESERVER/?room=!ROOM:SERVER';
    return endpoint.searchParams.get('room') ? undefined : 'Matrix needs the room: ?room=!ROOM:SERVER';
  },
  build: (endpoint, event) => {
    const url = without(endpoint, 'room');
    const room = encodeURIComponent(endpoint.searchParams.get('room')!);
    const txn = `ddedge-${Date.parse(event.time) || Date.now()}-${process.pid}-${++sequence}`;
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/_matrix/client/v3/rooms/${room}/send/m.room.message/${txn}`;
    const body = json({ msgtype: 'm.text', body: `${titleOf(event)}\n${textOf(event)}`, 'm.mentions': {} });
    return {
      method: 'PUT',
      url,
      headers: { ...body.headers, authorization: `Bearer ${decodeURIComponent(endpoint.password)}` },
      body: body.body,
    };
  },
};
