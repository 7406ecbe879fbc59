// Module ReferenceRP.
