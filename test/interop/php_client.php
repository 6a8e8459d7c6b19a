<?php
// Calls the reference service with PHP's SoapClient (php-soap), from its served WSDL, over SOAP 1.1
// and 1.2. Input: a JSON file {"wsdl", "namespace", "apiKey", "secret", "calls": [{"operation",
// "params", "resultElement"}]} (resultElement null for a void operation). Prints one JSON object
// with the calls made and any failures (a call whose answer lacks its result element is one).
$spec = json_decode(file_get_contents($argv[1]), true);
ini_set('soap.wsdl_cache_enabled', '0');
$last = 0.0;

// The AuthenticationHeader: HMAC-SHA1 of operation + timestamp, base64, with strictly increasing
// timestamps (the service refuses a repeated one as a replay).
function auth_header(array $spec, string $operation): SoapHeader {
    global $last;
    $now = max(microtime(true), $last + 0.001);
    $last = $now;
    $ms = (int) floor(($now - floor($now)) * 1000);
    $stamp = gmdate('Y-m-d\TH:i:s', (int) floor($now)) . sprintf('.%03dZ', $ms);
    $signature = base64_encode(hash_hmac('sha1', $operation . $stamp, $spec['secret'], true));
    $fields = ['Timestamp' => $stamp, 'Operation' => $operation, 'Signature' => $signature, 'APIKey' => $spec['apiKey']];
    $xml = '';
    foreach ($fields as $name => $value) $xml .= "<$name>" . htmlspecialchars($value, ENT_XML1) . "</$name>";
    $header = new SoapVar('<AuthenticationHeader xmlns="' . $spec['namespace'] . '">' . $xml . '</AuthenticationHeader>', XSD_ANYXML);
    return new SoapHeader($spec['namespace'], 'AuthenticationHeader', $header);
}

$calls = 0;
$failures = [];
foreach ([SOAP_1_1 => '1.1', SOAP_1_2 => '1.2'] as $version => $label) {
    $client = new SoapClient($spec['wsdl'], ['soap_version' => $version, 'exceptions' => true, 'cache_wsdl' => WSDL_CACHE_NONE]);
    foreach ($spec['calls'] as $call) {
        $op = $call['operation'];
        try {
            $result = $client->__soapCall($op, [$call['params']], null, auth_header($spec, $op));
            $element = $call['resultElement'];
            if ($element !== null && !(is_object($result) && property_exists($result, $element))) {
                $failures[] = "SOAP $label $op: no $element in " . json_encode($result);
            } else {
                $calls++;
            }
        } catch (Throwable $e) {
            $failures[] = "SOAP $label $op: " . $e->getMessage();
        }
    }
}
echo json_encode(['calls' => $calls, 'failures' => $failures]), "\n";
